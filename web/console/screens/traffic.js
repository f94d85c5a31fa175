// Traffic: runtime logs with latency figures, the debug trace of one
// correlation id, and attempts at unmapped URLs. (Unified lb/generic
// traffic logs and free-text search arrive with the observability API.)
import { html, useState } from '../lib/html.js';
import { get } from '../lib/api.js';
import { setQuery } from '../lib/router.js';
import { isoFromLocal, windowOptions, timeZone, fmtMs, fmtNum, fmtBytes } from '../lib/format.js';
import { Page } from '../components/page.js';
import { Tabs, TabPanel } from '../components/tabs.js';
import { DataTable, Pager, FilterBar } from '../components/table.js';
import { Status, When, useAsync, Loaded, Field, Badge, KeyValues } from '../components/ui.js';
import { Code, SideBySide } from '../components/code.js';
import { TrafficSearch, SoapPreview } from './traffic_search.js';
import { ReplayMetadata } from './traffic_replay.js';

const tabs = [['runtime', 'Runtime logs'], ['search', 'Search'], ['trace', 'Debug trace'], ['badurls', 'Unmapped URLs'], ['preview', 'SOAP to JSON']];

export function Traffic({ query }) {
  const tab = query.get('tab') || 'runtime';
  return html`<${Page} title="Traffic" subtitle="Runtime transactions, their debug payloads, and calls to paths no route serves.">
    <${Tabs} label="Traffic views" tabs=${tabs} current=${tab} onSelect=${(t) => setQuery({ tab: t, page: '' })} />
    <${TabPanel} id=${tab}>
      ${tab === 'runtime' && html`<${RuntimeLogs} query=${query} />`}
      ${tab === 'trace' && html`<${DebugTrace} key=${query.get('correlationId')} id=${query.get('correlationId') || ''} />`}
      ${tab === 'badurls' && html`<${BadURLs} query=${query} />`}
      ${tab === 'search' && html`<${TrafficSearch} query=${query} />`}
      ${tab === 'preview' && html`<${SoapPreview} />`}
    <//>
  <//>`;
}

const resultCodes = ['success', 'failed', 'backend_failure', 'error', 'timeout', 'response_schema_violation'];
const filterFields = [
  { name: 'environment', label: 'Environment' },
  { name: 'serviceKey', label: 'Service key' },
  { name: 'operationKey', label: 'Operation key' },
  { name: 'direction', label: 'Direction', type: 'select', options: [['publish', 'publish'], ['consume', 'consume'], ['gateway', 'gateway']] },
  { name: 'resultCode', label: 'Result', type: 'select', options: resultCodes.map((r) => [r, r]) },
  { name: 'status', label: 'HTTP status', placeholder: '502 or 5xx' },
  { name: 'correlationId', label: 'Correlation id' },
  { name: 'window', label: 'Time', type: 'select', options: windowOptions },
  { name: 'since', label: `From (${timeZone})`, type: 'datetime-local' },
  { name: 'until', label: `To (${timeZone})`, type: 'datetime-local' },
];

function RuntimeLogs({ query }) {
  const filters = Object.fromEntries(filterFields.map((f) => [f.name, query.get(f.name) || '']));
  const params = { ...filters, since: isoFromLocal(filters.since), until: isoFromLocal(filters.until) };
  const page = Number(query.get('page') || 1);
  const list = useAsync(() => get('/runtime-logs', { ...params, page, pageSize: 50 }), [query.toString()]);
  const latency = useAsync(() => get('/runtime-logs/latency', params), [JSON.stringify(params)]);
  const columns = [
    { key: 'occurredAt', label: 'When', render: (r) => html`<${When} iso=${r.occurredAt} />` },
    { key: 'service', label: 'Service / operation', render: (r) => html`<code>${r.direction}/${r.environment}/${r.serviceKey || '?'}</code><div class="muted small">${r.operationKey}</div>` },
    { key: 'request', label: 'Request', render: (r) => html`<code>${r.method} ${r.path}</code>` },
    { key: 'httpStatus', label: 'HTTP', render: (r) => html`${r.httpStatus}${r.inBodyFault ? html` <${Badge} kind="warn">fault<//>` : ''}` },
    { key: 'resultCode', label: 'Result', render: (r) => html`<${Status} value=${r.resultCode} />${r.errorCode && html`<div><code class="nowrap small">${r.errorCode}</code></div>`}` },
    { key: 'latency', label: 'Latency', render: (r) => html`<span class="nowrap">${fmtMs(r.totalMs)}</span><div class="muted small nowrap">converter ${fmtMs(r.converterMs)}</div><div class="muted small nowrap">backend ${fmtMs(r.backendMs)}</div>` },
    { key: 'correlationId', label: 'Trace', render: (r) => html`<button type="button" class="link" onClick=${() => setQuery({ tab: 'trace', correlationId: r.correlationId, page: '' })}
      title=${r.correlationId}>${r.debug ? 'payloads' : 'record'}</button>` },
  ];
  return html`<div class="stack">
    <${FilterBar} fields=${filterFields} values=${filters} onChange=${(v) => setQuery({ ...v, page: '' })} />
    <${Loaded} state=${latency}>${(l) => html`<p class="counters">
      <span>${fmtNum(l.count)} transactions</span><span>total p50 ${fmtMs(l.totalP50Ms)} · p99 ${fmtMs(l.totalP99Ms)}</span>
      <span>converter p50 ${fmtMs(l.converterP50Ms)} · p99 ${fmtMs(l.converterP99Ms)}</span></p>`}<//>
    <${Loaded} state=${list}>${(d) => html`<${DataTable} caption="Runtime logs" columns=${columns} rows=${d.items} rowKey=${(r) => r.id}
      empty="No runtime transaction matches." /><${Pager} data=${d} onPage=${(p) => setQuery({ page: p })} />`}<//>
  </div>`;
}

function DebugTrace({ id }) {
  const [text, setText] = useState(id);
  const trace = useAsync(() => (id ? get(`/debug-traces/${encodeURIComponent(id)}`) : Promise.resolve(null)), [id]);
  return html`<div class="stack">
    <form class="inline-form" role="search" onSubmit=${(e) => { e.preventDefault(); setQuery({ correlationId: text.trim() }); }}>
      <${Field} label="Correlation id" hint="From an error body, the X-Correlation-Id header or the runtime logs." wide>${(a) => html`
        <input ...${a} class="mono" required value=${text} onInput=${(e) => setText(e.target.value)} />`}<//>
      <button type="submit">Show trace</button>
    </form>
    ${id && html`<${Loaded} state=${trace}>${(t) => t && html`<div class="stack">
      ${t.payloadsWithheld && html`<p class="notice">Payloads are business data: they are shown to operators and admins only.</p>`}
      ${t.records.map((r, i) => html`<div class="card" key=${i}>
        <${KeyValues} items=${[
          ['When', html`<${When} iso=${r.record.occurredAt} />`],
          ['Route', html`<code>${r.record.direction}/${r.record.environment}/${r.record.serviceKey}</code> ${r.record.operationKey}`],
          ['Request', html`<code>${r.record.method} ${r.record.path}</code> from ${r.record.clientIp}`],
          ['Answer', html`HTTP ${r.record.httpStatus} · ${r.record.resultCode} ${r.record.errorCode}`],
          ['Backend', r.record.backendTarget],
          ['Timing', `total ${fmtMs(r.record.totalMs)}, converter ${fmtMs(r.record.converterMs)}, backend ${fmtMs(r.record.backendMs)}`],
          ['Sizes', `${fmtBytes(r.record.requestBytes)} in, ${fmtBytes(r.record.responseBytes)} out`],
        ]} />
        ${r.headers && html`<details><summary>Headers (masked)</summary><pre class="mono small">${JSON.stringify(r.headers, null, 2)}</pre></details>`}
        ${r.payloads ? html`<${SideBySide}>
          <${Code} title="Client request" lang=${guess(r.payloads.request)} text=${r.payloads.request} />
          <${Code} title="Backend request" lang=${guess(r.payloads.backendRequest)} text=${r.payloads.backendRequest} />
          <${Code} title="Backend response" lang=${guess(r.payloads.backendResponse)} text=${r.payloads.backendResponse} />
          <${Code} title="Client response" lang=${guess(r.payloads.response)} text=${r.payloads.response} />
        <//>` : !t.payloadsWithheld && html`<p class="muted">No payloads: debug was off for this transaction (turn it on for the service, or send X-Debug-Enabled: true).</p>`}
      </div>`)}
      <${ReplayMetadata} id=${id} />
    </div>`}<//>`}
  </div>`;
}

const guess = (s) => (typeof s === 'string' && s.trim().startsWith('<') ? 'xml' : 'json');

function BadURLs({ query }) {
  const hours = query.get('windowHours') || '24';
  const sum = useAsync(() => get('/bad-url-summary', { windowHours: hours }), [hours]);
  return html`<div class="stack">
    <div class="toolbar"><${Field} label="Window">${(a) => html`<select ...${a} value=${hours} onChange=${(e) => setQuery({ windowHours: e.target.value })}>
      ${[['1', 'last hour'], ['24', 'last 24 hours'], ['168', 'last 7 days'], ['720', 'last 30 days']].map(([v, l]) => html`<option value=${v}>${l}</option>`)}</select>`}<//></div>
    <${Loaded} state=${sum}>${(m) => {
      const rows = Object.entries(m).map(([path, v]) => ({ path, ...v })).sort((a, b) => b.count - a.count);
      return html`<${DataTable} caption="Unmapped URLs" rows=${rows} rowKey=${(r) => r.path} empty="No call to an unmapped path in this window." columns=${[
        { key: 'path', label: 'Attempted path', render: (r) => html`<code>${r.path}</code>` },
        { key: 'count', label: 'Calls', render: (r) => fmtNum(r.count) },
        { key: 'methods', label: 'Methods', render: (r) => (Array.isArray(r.methods) ? r.methods.join(', ') : typeof r.methods === 'object' ? Object.keys(r.methods).join(', ') : r.methods) },
        { key: 'lastSeenAt', label: 'Last seen', render: (r) => html`<${When} iso=${r.lastSeenAt} />` }]} />`;
    }}<//>
  </div>`;
}
