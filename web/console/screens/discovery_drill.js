// The drill-down of one discovered service URI: hourly timeline,
// consumers, recent good request/response pairs, recent failures and the
// alert rule.
import { html, useState } from '../lib/html.js';
import { get } from '../lib/api.js';
import { Link, setQuery, BASE } from '../lib/router.js';
import { fmtNum, fmtMs } from '../lib/format.js';
import { Section } from '../components/page.js';
import { DataTable } from '../components/table.js';
import { Field, When, useAsync, Loaded, KeyValues, ErrorBox, Status, Badge } from '../components/ui.js';
import { TimeChart } from '../components/chart.js';
import { Code, SideBySide } from '../components/code.js';
import { AlertRule } from './discovery_alert.js';

const sources = [['lb', 'load balancer'], ['generic', 'other gateways'], ['all', 'all']];

export function DrillDown({ rowId, query }) {
  const days = query.get('timelineDays') || '7';
  const source = query.get('drillSource') || 'lb';
  const dd = useAsync(() => get(`/master-discovery/rows/${encodeURIComponent(rowId)}/drill-down`, { timelineDays: days, source }), [rowId, days, source]);
  return html`<${Loaded} state=${dd} label="Loading the drill-down">${(d) => html`<${Section} id="drill" title=${d.row.serviceUri}>
    <${KeyValues} items=${[
      ['Row', `${d.row.rowId}${d.row.lbInstanceId ? ` · load-balancer instance ${d.row.lbInstanceId}` : ''}`],
      ['Sample URI', html`<code>${d.row.sampleUri}</code>`],
      ['Vendors', (d.row.vendors || [d.row.vendor]).join(', ')],
      ['Seen', html`<${When} iso=${d.row.firstSeen} /> to <${When} iso=${d.row.lastSeen} />`],
      ['Last 24 h', `${fmtNum(d.row.calls24h)} calls, ${fmtNum(d.row.errors24h)} errors`],
    ]} />
    <div class="toolbar">
      <${Field} label="Timeline">${(a) => html`<select ...${a} value=${days} onChange=${(e) => setQuery({ timelineDays: e.target.value })}>
        ${[['1', '1 day'], ['7', '7 days'], ['14', '14 days'], ['30', '30 days']].map(([v, l]) => html`<option value=${v}>${l}</option>`)}</select>`}<//>
      <${Field} label="Source">${(a) => html`<select ...${a} value=${source} onChange=${(e) => setQuery({ drillSource: e.target.value })}>
        ${sources.map(([v, l]) => html`<option value=${v}>${l}</option>`)}</select>`}<//>
      <${Link} class="button secondary" href=${`${BASE}/traffic?${new URLSearchParams({ source, serviceUri: d.row.serviceUri, window: '24h' })}`}>Traffic logs, 24 h<//>
    </div>
    <${TimeChart} title="Calls and failures per hour" times=${d.timeline.map((p) => p.hour)} series=${[
      { label: 'calls', kind: 'calls', values: d.timeline.map((p) => p.calls) },
      { label: 'failures', kind: 'errors', values: d.timeline.map((p) => p.failures) },
      { label: 'average latency', kind: 'latency', values: d.timeline.map((p) => p.avgLatencyMs) }]} />
    <div class="two-col">
      <div><h3>Consumers (${fmtNum(d.consumerCount)})</h3>
        <${DataTable} caption="Consumers" rows=${d.consumers} rowKey=${(c) => c.consumerIp} empty="No consumer in this window." columns=${[
          { key: 'consumerIp', label: 'Consumer IP', render: (c) => html`<code>${c.consumerIp}</code>` },
          { key: 'calls', label: 'Calls', render: (c) => fmtNum(c.calls) },
          { key: 'failures', label: 'Failures', render: (c) => fmtNum(c.failures) },
          { key: 'lastSeen', label: 'Last seen', render: (c) => html`<${When} iso=${c.lastSeen} />` }]} /></div>
      <div><h3>Alert rule</h3><${AlertRule} row=${d.row} rule=${d.alertRule} /></div>
    </div>
    <h3>Good examples (${d.goodExamples.length})</h3>
    <${Exchanges} items=${d.goodExamples} empty="No successful exchange with payloads yet." />
    <${Failures} rowId=${rowId} />
  <//>`}<//>`;
}

// Exchanges lists request/response pairs; one opens at a time.
function Exchanges({ items, empty }) {
  const [open, setOpen] = useState(null);
  const current = items.find((x) => `${x.source}-${x.id}` === open);
  return html`<${DataTable} caption="Exchanges" rows=${items} rowKey=${(x) => `${x.source}-${x.id}`} empty=${empty} columns=${[
    { key: 'occurredAt', label: 'When', render: (x) => html`<${When} iso=${x.occurredAt} />` },
    { key: 'request', label: 'Request', render: (x) => html`<code>${x.method} ${x.uri}</code><div class="muted small">${x.vendor} · ${x.consumerIp}</div>` },
    { key: 'statusCode', label: 'HTTP', render: (x) => html`${x.statusCode}${x.soapFault ? html` <${Badge} kind="warn">fault<//>` : ''}` },
    { key: 'resultCode', label: 'Result', render: (x) => html`<${Status} value=${x.resultCode} />` },
    { key: 'durationMs', label: 'Duration', render: (x) => fmtMs(x.durationMs) },
    { key: 'open', label: 'Payloads', render: (x) => html`<button type="button" class="link" aria-expanded=${open === `${x.source}-${x.id}` ? 'true' : 'false'}
      onClick=${() => setOpen(open === `${x.source}-${x.id}` ? null : `${x.source}-${x.id}`)}>${open === `${x.source}-${x.id}` ? 'Hide' : 'Show'}</button>` }]} />
    ${current && html`<${SideBySide}>
      <${Code} title=${`Request${current.request.truncated ? ' (truncated)' : ''}`} lang="xml" text=${current.request.payload} />
      <${Code} title=${`Response${current.response.truncated ? ' (truncated)' : ''}`} lang="xml" text=${current.response.payload} />
      ${current.request.headers && html`<${Code} title="Request headers (redacted)" lang="json" text=${JSON.stringify(current.request.headers, null, 2)} />`}
      ${current.response.headers && html`<${Code} title="Response headers (redacted)" lang="json" text=${JSON.stringify(current.response.headers, null, 2)} />`}
    <//>`}`;
}

function Failures({ rowId }) {
  const [limit, setLimit] = useState('20');
  const [state, setState] = useState({ busy: false, error: null, f: null });
  const load = async () => {
    setState({ busy: true, error: null, f: null });
    try { setState({ busy: false, error: null, f: await get(`/master-discovery/rows/${encodeURIComponent(rowId)}/failures`, { limit }) }); } catch (error) { setState({ busy: false, error, f: null }); }
  };
  return html`<div class="stack">
    <h3>Recent failures</h3>
    <div class="inline-form">
      <${Field} label="How many">${(a) => html`<select ...${a} value=${limit} onChange=${(e) => setLimit(e.target.value)}>${['20', '50', '100'].map((v) => html`<option>${v}</option>`)}</select>`}<//>
      <button type="button" class="secondary" disabled=${state.busy} onClick=${load}>Show failures</button>
    </div>
    <${ErrorBox} error=${state.error} />
    ${state.f && html`${state.f.partial && html`<p class="notice">The scan stopped early: these are the most recent failures only, so other failures may exist.</p>`}
      <${Exchanges} items=${state.f.failures} empty="No failure found." />`}
  </div>`;
}
