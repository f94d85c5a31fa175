// Dashboard: the state of the platform at a glance. With the
// observability API (GET /dashboard/summary): KPIs, the 24-hour traffic
// chart, top error services, urgent issues, data freshness and the SLO
// report (screens/dashboard_summary.js). Without it: figures from the
// runtime's own records (runtime logs, unmapped URLs).
import { html } from '../lib/html.js';
import { get } from '../lib/api.js';
import { Link, BASE } from '../lib/router.js';
import { fmtNum, fmtMs } from '../lib/format.js';
import { Page, Section } from '../components/page.js';
import { DataTable } from '../components/table.js';
import { When, useAsync, Loaded, Status, missingEndpoint } from '../components/ui.js';
import { Summary } from './dashboard_summary.js';

const errorCodes = 'failed,backend_failure,error,timeout,response_schema_violation';

async function overview() {
  const [all, active, traffic24, latency1h, errors24, bad] = await Promise.all([
    get('/services', { pageSize: 1 }),
    get('/services', { pageSize: 1, status: 'active' }),
    get('/runtime-logs/latency', { window: '24h' }),
    get('/runtime-logs/latency', { window: '1h' }),
    get('/runtime-logs', { window: '24h', resultCode: errorCodes, pageSize: 8 }),
    get('/bad-url-summary', { windowHours: 24 }),
  ]);
  const badCalls = Object.values(bad).reduce((n, v) => n + (v.count || 0), 0);
  return { all, active, traffic24, latency1h, errors24, badCalls, badPaths: Object.keys(bad).length };
}

function Kpi({ label, value, hint, href }) {
  const body = html`<span class="kpi-value">${value}</span><span class="kpi-label">${label}</span>${hint && html`<span class="kpi-hint">${hint}</span>`}`;
  return html`<li class="kpi">${href ? html`<${Link} class="kpi-body" href=${href}>${body}<//>` : html`<div class="kpi-body">${body}</div>`}</li>`;
}

export function Dashboard({ query }) {
  const probe = useAsync(() => get('/dashboard/summary').then((d) => d, (e) => (missingEndpoint(e) ? null : Promise.reject(e))), []);
  return html`<${Loaded} state=${probe}>${(d) => (d ? html`<${Summary} query=${query} first=${d} />` : html`<${RuntimeOverview} />`)}<//>`;
}

function RuntimeOverview() {
  const data = useAsync(overview, []);
  return html`<${Page} title="Dashboard" subtitle="Runtime traffic of the last 24 hours, from this platform's transaction records.">
    <${Loaded} state=${data}>${(d) => {
      const errPct = d.traffic24.count ? (100 * d.errors24.totalItems) / d.traffic24.count : 0;
      return html`<div class="stack">
        <ul class="kpis" aria-label="Key figures">
          <${Kpi} label="services" value=${fmtNum(d.all.totalItems)} hint=${`${fmtNum(d.active.totalItems)} active`} href=${`${BASE}/services`} />
          <${Kpi} label="requests, 24 h" value=${fmtNum(d.traffic24.count)} href=${`${BASE}/traffic?window=24h`} />
          <${Kpi} label="errors, 24 h" value=${fmtNum(d.errors24.totalItems)} hint=${`${errPct.toFixed(2)} %`} href=${`${BASE}/traffic?window=24h&resultCode=failed`} />
          <${Kpi} label="p99 latency, 1 h" value=${fmtMs(d.latency1h.totalP99Ms)} hint=${`converter p99 ${fmtMs(d.latency1h.converterP99Ms)}`} />
          <${Kpi} label="unmapped calls, 24 h" value=${fmtNum(d.badCalls)} hint=${`${fmtNum(d.badPaths)} paths`} href=${`${BASE}/traffic?tab=badurls`} />
        </ul>
        <${Section} id="recent-errors" title="Recent failures (24 h)">
          <${DataTable} caption="Recent failures" rows=${d.errors24.items} rowKey=${(r) => r.id} empty="No failed transaction in the last 24 hours." columns=${[
            { key: 'occurredAt', label: 'When', render: (r) => html`<${When} iso=${r.occurredAt} />` },
            { key: 'service', label: 'Service', render: (r) => html`<code>${r.direction}/${r.environment}/${r.serviceKey}</code> ${r.operationKey}` },
            { key: 'httpStatus', label: 'HTTP' },
            { key: 'resultCode', label: 'Result', render: (r) => html`<${Status} value=${r.resultCode} /> <code class="nowrap">${r.errorCode}</code>` },
            { key: 'trace', label: 'Trace', render: (r) => html`<${Link} href=${`${BASE}/traffic?tab=trace&correlationId=${encodeURIComponent(r.correlationId)}`}>open<//>` }]} />
        <//>
      </div>`;
    }}<//>
  <//>`;
}
