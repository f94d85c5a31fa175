// Traffic logs: one paged list for every traffic source, newest first.
// runtime reads GET /runtime-logs (with its latency figures); lb, generic
// and both edge sources read the unified GET /traffic-logs (SPEC 4.10:
// source lb, generic or all); lb listed by another stage than its client
// response reads the legacy GET /lb-logs. Each source has the filters its
// endpoint has; a row's Details opens the drawer (traffic_drawer.js).
import { html } from '../lib/html.js';
import { get } from '../lib/api.js';
import { setQuery } from '../lib/router.js';
import { isoFromLocal, windowOptions, timeZone, fmtMs, fmtNum, issueCount, issueText } from '../lib/format.js';
import { DataTable, Pager, FilterBar } from '../components/table.js';
import { Status, When, useAsync, Loaded, Badge } from '../components/ui.js';
import { DetailsButton } from './traffic_drawer.js';

// sources of the list: runtime first (the traffic every s2r has).
const sources = [['runtime', 'runtime (s2r)'], ['lb', 'load balancer (lb)'], ['generic', 'other gateways (generic)'], ['all', 'lb and generic']];
export const isEdge = (source) => source !== 'runtime';

const resultCodes = ['success', 'failed', 'backend_failure', 'error', 'timeout', 'response_schema_violation'];
const directionOptions = [['publish', 'publish'], ['consume', 'consume'], ['gateway', 'gateway']];

const sourceField = { name: 'source', label: 'Source', type: 'select', options: sources, required: true, keep: true };
const timeFields = (edge) => [
  { name: 'window', label: 'Time', type: 'select', options: windowOptions, anyLabel: edge ? 'last 15 minutes' : 'last 24 hours' },
  { name: 'start', label: `From (${timeZone})`, type: 'datetime-local' },
  { name: 'end', label: `To (${timeZone})`, type: 'datetime-local' },
];
const runtimeFields = [
  { name: 'environment', label: 'Environment' },
  { name: 'serviceKey', label: 'Service key' },
  { name: 'operationKey', label: 'Operation key' },
  { name: 'direction', label: 'Direction', type: 'select', options: directionOptions },
  { name: 'resultCode', label: 'Result', type: 'select', options: resultCodes.map((r) => [r, r]) },
  { name: 'status', label: 'HTTP status', placeholder: '502 or 5xx' },
  { name: 'correlationId', label: 'Correlation id' },
];
const edgeFields = [
  { name: 'serviceUri', label: 'Service URI contains' },
  { name: 'customer', label: 'Consumer IP contains' },
  { name: 'vendor', label: 'Vendor', placeholder: 'f5, kong, …' },
  { name: 'resultCode', label: 'Edge result', placeholder: 'reset, timeout, …' },
  { name: 'instanceId', label: 'Connector instance id' },
  { name: 'frontVirtualServer', label: 'Front virtual server', placeholder: 'lb only' },
  { name: 'backVirtualServer', label: 'Back virtual server', placeholder: 'lb only' },
];
// stageField lists lb transactions by another stage event (GET /lb-logs):
// client_request also lists those still in flight.
const stageField = { name: 'stage', label: 'Listed by', type: 'select', anyLabel: 'client response (completed)',
  options: [['client_request', 'client request (in flight too)'], ['server_request', 'server request'], ['server_response', 'server response']] };
const allNames = [...new Set([...runtimeFields, ...edgeFields, stageField, ...timeFields(false)].map((f) => f.name))];

// fieldsOf lists the filters of a source.
const fieldsOf = (source) => [sourceField, ...(source === 'lb' ? [stageField] : []), ...(isEdge(source) ? edgeFields : runtimeFields), ...timeFields(isEdge(source))];

// endpointOf is the list a query reads: runtime records, the legacy lb
// list when a stage is chosen (the unified list has no stage), else the
// unified edge list.
function endpointOf(source, params) {
  if (!isEdge(source)) return '/runtime-logs';
  if (params.stage) return '/lb-logs';
  return '/traffic-logs';
}

// sourceOf reads the list's source (runtime when absent or unknown).
export function sourceOf(query) {
  const s = query.get('source');
  return sources.some(([v]) => v === s) ? s : 'runtime';
}

// row turns a runtime record or an edge item into the list's shape.
function row(source, r) {
  if (source === 'runtime') {
    return { key: `runtime-${r.id}`, source: 'runtime', open: r.correlationId, occurredAt: r.occurredAt,
      service: html`<code>${r.direction}/${r.environment}/${r.serviceKey || '?'}</code><div class="muted small">${r.operationKey}</div>`,
      method: r.method, uri: r.path, status: r.httpStatus, fault: r.inBodyFault, resultCode: r.resultCode, errorCode: r.errorCode,
      latency: html`<span class="nowrap">${fmtMs(r.totalMs)}</span><div class="muted small nowrap">converter ${fmtMs(r.converterMs)}</div>`,
      peer: r.clientIp, backend: r.backendTarget, issues: r.validationIssues };
  }
  const service = r.environment === 'discovered' ? html`<span class="muted small">shadow</span>` : html`<code>${[r.direction, r.environment, r.serviceKey].filter(Boolean).join('/')}</code>`;
  return { key: `${r.source}-${r.id}`, source: r.source, vendor: r.gatewayVendor, open: r.id, occurredAt: r.occurredAt,
    service: html`<code>${r.serviceUri}</code><div>${service}</div>`,
    method: r.method, uri: r.uri, status: r.statusCode, fault: r.soapFault, resultCode: r.resultCode, error: r.error,
    latency: html`<span class="nowrap">${fmtMs(r.latencyMs)}</span>`, peer: r.consumerIp, backend: r.backend,
    vs: r.frontVirtualServer && `${r.frontVirtualServer} → ${r.backVirtualServer || '—'}` };
}

export const sourceBadge = (r) => html`<${Badge} kind=${r.source === 'runtime' ? 'neutral' : 'info'}>${r.source}<//>${r.vendor ? html` <span class="small">${r.vendor}</span>` : ''}`;

export const columns = [
  { key: 'occurredAt', label: 'When', render: (r) => html`<${When} iso=${r.occurredAt} />` },
  { key: 'source', label: 'Source', render: sourceBadge },
  { key: 'service', label: 'Service', render: (r) => r.service },
  { key: 'request', label: 'Request', render: (r) => html`<code>${r.method} ${r.uri}</code>` },
  { key: 'status', label: 'HTTP', render: (r) => html`${r.status}${r.fault ? html` <${Badge} kind="warn">fault<//>` : ''}` },
  { key: 'resultCode', label: 'Result', render: (r) => html`<${Status} value=${r.resultCode} />${r.error ? html` <${Badge} kind="bad">error<//>` : ''}${r.errorCode && html`<div><code class="nowrap small">${r.errorCode}</code></div>`}${r.issues?.length > 0 && html`<div><${Badge} kind="warn"
    title=${r.issues.map(issueText).join('\n')}>${fmtNum(issueCount(r.issues))} contract ${issueCount(r.issues) === 1 ? 'violation' : 'violations'}<//></div>`}` },
  { key: 'latency', label: 'Latency', render: (r) => r.latency },
  { key: 'peer', label: 'Consumer / backend', render: (r) => html`${r.peer || '—'}<div class="muted small">${r.backend || ''}</div>${r.vs && html`<div class="muted small">${r.vs}</div>`}` },
  { key: 'open', label: 'Details', render: (r) => html`<${DetailsButton} source=${r.source} id=${r.open}
    label=${`Details of ${r.method} ${r.uri} at ${new Date(r.occurredAt).toLocaleString()}`} />` },
];

export function TrafficLogs({ query }) {
  const source = sourceOf(query);
  const fields = fieldsOf(source);
  const filters = Object.fromEntries(fields.map((f) => [f.name, query.get(f.name) || '']));
  filters.source = source;
  // Deep links of the former runtime-log tab named the range since/until.
  if (!filters.start && query.get('since')) filters.start = query.get('since');
  if (!filters.end && query.get('until')) filters.end = query.get('until');
  const params = { ...filters, start: isoFromLocal(filters.start), end: isoFromLocal(filters.end) };
  const page = Number(query.get('page') || 1);
  const key = JSON.stringify([params, page]);
  const endpoint = endpointOf(source, params);
  if (endpoint !== '/traffic-logs') delete params.source;
  const list = useAsync(() => get(endpoint, { ...params, page, pageSize: 50 }), [key]);
  const latency = useAsync(() => (isEdge(source) ? Promise.resolve(null) : get('/runtime-logs/latency', params)), [JSON.stringify(params)]);
  const onChange = (v) => {
    // A new source drops the filters the new source does not have.
    const next = v.source !== source ? Object.fromEntries(allNames.map((n) => [n, ''])) : {};
    if (v.source !== source) ['window', 'start', 'end'].forEach((n) => { next[n] = v[n]; });
    else Object.assign(next, v);
    setQuery({ ...next, source: v.source === 'runtime' ? '' : v.source, since: '', until: '', page: '' });
  };
  return html`<div class="stack">
    <${FilterBar} fields=${fields} values=${filters} onChange=${onChange} />
    ${!isEdge(source) && html`<${Loaded} state=${latency}>${(l) => l && html`<p class="counters">
      <span>${fmtNum(l.count)} transactions</span><span>total p50 ${fmtMs(l.totalP50Ms)} · p99 ${fmtMs(l.totalP99Ms)}</span>
      <span>converter p50 ${fmtMs(l.converterP50Ms)} · p99 ${fmtMs(l.converterP99Ms)}</span></p>`}<//>`}
    <${Loaded} state=${list}>${(d) => html`<${DataTable} caption="Traffic logs" columns=${columns} rows=${d.items.map((r) => row(source, r))}
      rowKey=${(r) => r.key} empty=${`No ${source === 'all' ? 'lb or generic' : source} transaction matches.`} />
      <${Pager} data=${d} onPage=${(p) => setQuery({ page: p })} />`}<//>
  </div>`;
}
