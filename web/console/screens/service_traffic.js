// The service's traffic over time (GET /service-metric-timeline):
// requests, errors and latency per bucket, with the window's summary.
import { html } from '../lib/html.js';
import { get } from '../lib/api.js';
import { Link, setQuery, BASE } from '../lib/router.js';
import { fmtNum, fmtMs } from '../lib/format.js';
import { Field, KeyValues, useAsync, Loaded } from '../components/ui.js';
import { TimeChart } from '../components/chart.js';

const windows = [['1h', 'last hour'], ['24h', 'last 24 hours'], ['7d', 'last 7 days'], ['30d', 'last 30 days']];

export function ServiceTraffic({ service, query }) {
  const win = query.get('window') || '24h';
  const tl = useAsync(() => get('/service-metric-timeline', { environment: service.environment, serviceKey: service.serviceKey, window: win }), [service.serviceId, win]);
  return html`<div class="stack">
    <div class="toolbar">
      <${Field} label="Window">${(a) => html`<select ...${a} value=${win} onChange=${(e) => setQuery({ window: e.target.value })}>
        ${windows.map(([v, l]) => html`<option value=${v}>${l}</option>`)}</select>`}<//>
      <${Link} class="button secondary" href=${`${BASE}/traffic?environment=${encodeURIComponent(service.environment)}&serviceKey=${encodeURIComponent(service.serviceKey)}`}>Runtime logs<//>
    </div>
    <${Loaded} state=${tl}>${(t) => html`<div class="card stack">
      <${KeyValues} items=${[
        ['Requests', fmtNum(t.requestCount)],
        ['Errors', `${fmtNum(t.errorCount)}${t.errorPct == null ? '' : ` (${t.errorPct.toFixed(2)} %)`}`],
        ['Average latency', fmtMs(t.avgLatencyMs)],
        ['p95 latency', fmtMs(t.p95LatencyMs)],
        ['Buckets', `${Math.round(t.bucketSeconds / 60)} min${t.aggregated ? ' (hourly aggregates)' : ' (raw records)'}`],
      ]} />
      <${TimeChart} title=${`${service.serviceKey}: requests, errors and average latency`} times=${t.points.map((p) => p.start)} series=${[
        { label: 'requests', kind: 'calls', values: t.points.map((p) => p.requestCount) },
        { label: 'errors', kind: 'errors', values: t.points.map((p) => p.errorCount) },
        { label: 'average latency', kind: 'latency', values: t.points.map((p) => p.avgLatencyMs) }]} />
    </div>`}<//>
  </div>`;
}
