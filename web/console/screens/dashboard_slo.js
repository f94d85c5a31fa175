// The SLO report (GET /slo-report): availability and p95 latency per
// service and operation against their targets, breaches first.
import { html, useState } from '../lib/html.js';
import { get } from '../lib/api.js';
import { setQuery } from '../lib/router.js';
import { fmtNum, fmtMs, windowOptions, sourceOptions } from '../lib/format.js';
import { DataTable, FilterBar } from '../components/table.js';
import { useAsync, Loaded, Status, Badge } from '../components/ui.js';
import { TimeChart } from '../components/chart.js';

const filterFields = [
  { name: 'window', label: 'Window', type: 'select', options: windowOptions },
  { name: 'serviceKeys', label: 'Service keys', placeholder: 'comma-separated' },
  { name: 'source', label: 'Source', type: 'select', options: sourceOptions, anyLabel: 'all sources' },
  { name: 'direction', label: 'Direction', type: 'select', options: [['publish', 'publish'], ['consume', 'consume']] },
  { name: 'availabilityTarget', label: 'Availability target (%)', placeholder: '99.5' },
  { name: 'p95LatencyTargetMs', label: 'p95 target (ms)', placeholder: '500' },
];

export function SLOReport({ query }) {
  const filters = Object.fromEntries(filterFields.map((f) => [f.name, query.get(f.name) || '']));
  const params = { ...filters, serviceKeys: filters.serviceKeys ? filters.serviceKeys.split(',').map((s) => s.trim()).filter(Boolean) : '' };
  const report = useAsync(() => get('/slo-report', params), [JSON.stringify(filters)]);
  const [open, setOpen] = useState(null);
  const keyOf = (i) => `${i.source}/${i.direction}/${i.environment}/${i.serviceKey}/${i.operationKey}`;
  return html`<div class="stack">
    <${FilterBar} fields=${filterFields} values=${filters} onChange=${(v) => setQuery(v)} />
    <${Loaded} state=${report}>${(items) => {
      const rows = [...items].sort((a, b) => Number(b.breach) - Number(a.breach));
      const current = rows.find((i) => keyOf(i) === open);
      return html`<p>${rows.filter((i) => i.breach).length} of ${rows.length} in breach.</p>
        <${DataTable} caption="SLO report" rows=${rows} rowKey=${keyOf} empty="No traffic in this window." columns=${[
          { key: 'service', label: 'Service / operation', render: (i) => html`<code>${i.direction}/${i.environment}/${i.serviceKey}</code><div class="muted small">${i.operationKey} · ${i.source}</div>` },
          { key: 'breach', label: 'SLO', render: (i) => (i.breach ? html`<${Badge} kind="bad">breach<//>` : html`<${Badge} kind="ok">met<//>`) },
          { key: 'requestCount', label: 'Requests', render: (i) => fmtNum(i.requestCount) },
          { key: 'availabilityPct', label: 'Availability', render: (i) => html`${i.availabilityPct == null ? '—' : `${i.availabilityPct.toFixed(3)} %`}${i.availabilityBreach ? html` <${Status} value="failed" />` : ''}` },
          { key: 'p95LatencyMs', label: 'p95 latency', render: (i) => html`${fmtMs(i.p95LatencyMs)}${i.p95LatencyBreach ? html` <${Status} value="failed" />` : ''}` },
          { key: 'timeline', label: 'Timeline', render: (i) => html`<button type="button" class="link" aria-expanded=${open === keyOf(i) ? 'true' : 'false'}
            onClick=${() => setOpen(open === keyOf(i) ? null : keyOf(i))}>${open === keyOf(i) ? 'Hide' : 'Show'}</button>` }]} />
        ${current && html`<div class="card"><${TimeChart} title=${`${current.serviceKey} ${current.operationKey}: requests, errors and p95`}
          times=${current.timeline.map((p) => p.start)} series=${[
            { label: 'requests', kind: 'calls', values: current.timeline.map((p) => p.requestCount) },
            { label: 'errors', kind: 'errors', values: current.timeline.map((p) => p.errorCount) },
            { label: 'p95 latency', kind: 'latency', values: current.timeline.map((p) => p.p95LatencyMs) }]} /></div>`}`;
    }}<//>
  </div>`;
}
