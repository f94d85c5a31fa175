// Traffic: the traffic logs of every source (runtime, lb, generic) with a
// detail drawer, free-text search, the debug trace of one correlation id,
// attempts at unmapped URLs and the SOAP-to-JSON preview. The drawer is
// the screen's, so the logs and the search open the same one.
import { html } from '../lib/html.js';
import { get } from '../lib/api.js';
import { setQuery, navigate, BASE } from '../lib/router.js';
import { fmtNum } from '../lib/format.js';
import { Page } from '../components/page.js';
import { Tabs, TabPanel } from '../components/tabs.js';
import { DataTable } from '../components/table.js';
import { When, useAsync, Loaded, Field } from '../components/ui.js';
import { TrafficLogs } from './traffic_logs.js';
import { TrafficSearch, SoapPreview } from './traffic_search.js';
import { DebugTrace } from './traffic_trace.js';
import { TrafficDrawer } from './traffic_drawer.js';

const tabs = [['logs', 'Traffic logs'], ['search', 'Search'], ['trace', 'Debug trace'], ['badurls', 'Unmapped URLs'], ['preview', 'SOAP to JSON']];

export function Traffic({ query }) {
  // tab=runtime is the former runtime-log tab: the logs of source runtime.
  const tab = query.get('tab') === 'runtime' ? 'logs' : query.get('tab') || 'logs';
  const open = query.get('open');
  // Each tab has its own filters: changing tabs starts from none.
  return html`<${Page} title="Traffic" subtitle="Transactions of the runtime, the load balancers and other gateways; debug payloads; calls to paths no route serves.">
    <${Tabs} label="Traffic views" tabs=${tabs} current=${tab} onSelect=${(t) => navigate(`${BASE}/traffic${t === 'logs' ? '' : `?tab=${t}`}`, { replace: true })} />
    <${TabPanel} id=${tab}>
      ${tab === 'logs' && html`<${TrafficLogs} query=${query} />`}
      ${tab === 'search' && html`<${TrafficSearch} query=${query} />`}
      ${tab === 'trace' && html`<${DebugTrace} key=${query.get('correlationId')} id=${query.get('correlationId') || ''} />`}
      ${tab === 'badurls' && html`<${BadURLs} query=${query} />`}
      ${tab === 'preview' && html`<${SoapPreview} />`}
    <//>
    ${open && html`<${TrafficDrawer} key=${open} open=${open} />`}
  <//>`;
}

function BadURLs({ query }) {
  const hours = query.get('windowHours') || '24';
  const sum = useAsync(() => get('/bad-url-summary', { windowHours: hours }), [hours]);
  return html`<div class="stack">
    <div class="toolbar"><${Field} label="Window">${(a) => html`<select ...${a} value=${hours} onChange=${(e) => setQuery({ windowHours: e.target.value })}>
      ${[['1', 'last hour'], ['24', 'last 24 hours'], ['168', 'last 7 days'], ['720', 'last 30 days']].map(([v, l]) => html`<option value=${v}>${l}</option>`)}</select>`}<//></div>
    <p class="muted">Calls that reached no service: paths without a direction segment (400 S2R-RUN-0405), and paths whose environment and service key name no active service (404 S2R-RUN-0404).</p>
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
