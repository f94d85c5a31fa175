// Discovery (DESIGN 9): every service URI seen in load-balancer and
// gateway traffic, onboarded or not (master discovery rows), with a
// drill-down per row (screens/discovery_drill.js) and the connector
// instances that report the traffic (screens/discovery_instances.js).
import { html } from '../lib/html.js';
import { get } from '../lib/api.js';
import { Link, setQuery, BASE } from '../lib/router.js';
import { fmtNum, fmtAgo } from '../lib/format.js';
import { Page } from '../components/page.js';
import { Tabs, TabPanel } from '../components/tabs.js';
import { DataTable, Pager, FilterBar } from '../components/table.js';
import { When, useAsync, Loaded, Badge } from '../components/ui.js';
import { Probe } from './unavailable.js';
import { DrillDown } from './discovery_drill.js';
import { Instances } from './discovery_instances.js';

const filterFields = [
  { name: 'q', label: 'URI or service key contains' },
  { name: 'vendor', label: 'Vendor', placeholder: 'e.g. f5' },
  { name: 'source', label: 'Source', type: 'select', options: [['lb', 'load balancer'], ['generic', 'other gateways']] },
  { name: 'onboarded', label: 'Onboarded', type: 'select', options: [['true', 'onboarded'], ['false', 'shadow services']] },
];

export function Discovery({ query }) {
  const tab = query.get('tab') || 'rows';
  return html`<${Probe} title="Discovery" subtitle="SOAP services seen in traffic, onboarded or not, and the connectors that report them." path="/master-discovery/rows">
    <${Tabs} label="Discovery views" tabs=${[['rows', 'Discovered services'], ['instances', 'Connector instances']]} current=${tab}
      onSelect=${(t) => setQuery({ tab: t, row: '', page: '' })} />
    <${TabPanel} id=${tab}>${tab === 'instances' ? html`<${Instances} />` : html`<${Rows} query=${query} />`}<//>
  <//>`;
}

function Rows({ query }) {
  const filters = Object.fromEntries(filterFields.map((f) => [f.name, query.get(f.name) || '']));
  const page = Number(query.get('page') || 1);
  const rows = useAsync(() => get('/master-discovery/rows', { ...filters, page, pageSize: 25 }), [JSON.stringify(filters), page]);
  const open = query.get('row');
  const columns = [
    { key: 'serviceUri', label: 'Service URI', render: (r) => html`<button type="button" class="link mono" aria-pressed=${String(r.rowId) === open ? 'true' : 'false'}
      onClick=${() => setQuery({ row: r.rowId })}>${r.serviceUri}</button>` },
    { key: 'onboarded', label: 'Service', render: (r) => (r.onboardedServiceId
      ? html`<${Link} href=${`${BASE}/services/${r.onboardedServiceId}`}>${r.environment}/${r.serviceKey}<//>`
      : html`<${Badge}>shadow<//>`) },
    { key: 'vendor', label: 'Vendors', render: (r) => (r.vendors && r.vendors.length ? r.vendors.join(', ') : r.vendor) },
    { key: 'sources', label: 'Sources', render: (r) => (r.sources || []).join(', ') },
    { key: 'calls24h', label: 'Calls, 24 h', render: (r) => fmtNum(r.calls24h) },
    { key: 'errors24h', label: 'Errors, 24 h', render: (r) => (r.errors24h ? html`<span class="kpi-bad">${fmtNum(r.errors24h)}</span>` : '0') },
    { key: 'lastSeen', label: 'Last seen', render: (r) => html`<${When} iso=${r.lastSeen} /><div class="muted small">${fmtAgo(r.lastSeen)}</div>` },
  ];
  return html`<div class="stack">
    <${FilterBar} fields=${filterFields} values=${filters} onChange=${(v) => setQuery({ ...v, page: '', row: '' })} />
    <${Loaded} state=${rows}>${(d) => html`<${DataTable} caption="Discovered services" columns=${columns} rows=${d.items} rowKey=${(r) => r.rowId}
      empty="No service URI has been seen yet: register a connector instance and send traffic logs to /ingest/v1." />
      <${Pager} data=${d} onPage=${(p) => setQuery({ page: p })} />`}<//>
    ${open && html`<${DrillDown} key=${open} rowId=${open} query=${query} />`}
  </div>`;
}
