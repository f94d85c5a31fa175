// Services: the paged list with filters and bulk actions (SPEC 4.8
// GET /services, POST /services:bulk-action).
import { html, useState } from '../lib/html.js';
import { get, api } from '../lib/api.js';
import { Link, setQuery, BASE } from '../lib/router.js';
import { Can, useSession, can } from '../lib/session.js';
import { fmtAgo } from '../lib/format.js';
import { Page } from '../components/page.js';
import { DataTable, Pager, FilterBar } from '../components/table.js';
import { Status, Badge, When, useAsync, Loaded, ErrorBox, announce } from '../components/ui.js';
import { useConfirm } from '../components/dialog.js';

const filterFields = [
  { name: 'q', label: 'Search', placeholder: 'key or name' },
  { name: 'environment', label: 'Environment', placeholder: 'e.g. dev' },
  { name: 'direction', label: 'Direction', type: 'select', options: [['publish', 'publish'], ['consume', 'consume'], ['gateway', 'gateway']] },
  { name: 'status', label: 'Status', type: 'select', options: [['active', 'active'], ['disabled', 'disabled'], ['deprecated', 'deprecated']] },
  { name: 'traffic', label: 'Traffic', type: 'select', options: [['with', 'has traffic'], ['without', 'never called']] },
];

const bulkActions = [
  ['enable', 'Enable'],
  ['disable', 'Disable'],
  ['debug_on', 'Debug on'],
  ['debug_off', 'Debug off'],
  ['delete', 'Deprecate (soft delete)'],
];

export function Services({ query }) {
  const { me } = useSession();
  const filters = Object.fromEntries(filterFields.map((f) => [f.name, query.get(f.name) || '']));
  const page = Number(query.get('page') || 1);
  const list = useAsync(() => get('/services', { ...filters, page, pageSize: 25 }), [query.toString()]);
  const [selected, setSelected] = useState(new Set());
  const [ask, dialog] = useConfirm();
  const [result, setResult] = useState(null);

  const runBulk = (action, label) => ask({
    title: `${label}: ${selected.size} service${selected.size === 1 ? '' : 's'}`,
    body: html`<p>Apply <strong>${label}</strong> to the selected services? Each service changes in its own transaction and is audited.</p>`,
    confirmLabel: label,
    danger: action === 'delete' || action === 'disable',
    action: async () => {
      const res = await api('POST', '/services:bulk-action', { action, serviceIds: [...selected] });
      setResult(res);
      setSelected(new Set());
      list.reload();
      announce(`${label}: ${res.summary.succeeded ?? 0} succeeded, ${res.summary.failed ?? 0} failed`);
    },
  });

  const columns = [
    { key: 'serviceKey', label: 'Service', render: (s) => html`<${Link} href=${`${BASE}/services/${s.serviceId}`}>${s.serviceKey}<//><div class="muted small">${s.serviceName}</div>` },
    { key: 'environment', label: 'Environment' },
    { key: 'direction', label: 'Direction' },
    { key: 'status', label: 'Status', render: (s) => html`<${Status} value=${s.status} />` },
    { key: 'active', label: 'Active version', render: (s) => (s.activeVersionId ? html`<${Badge} kind="ok">yes<//>` : html`<${Badge}>none<//>`) },
    { key: 'debug', label: 'Debug', render: (s) => (s.debugEnabled ? html`<${Badge} kind="warn">on<//>` : 'off') },
    { key: 'lastTrafficAt', label: 'Last traffic', render: (s) => (s.lastTrafficAt ? html`<${When} iso=${s.lastTrafficAt} /><div class="muted small">${fmtAgo(s.lastTrafficAt)}</div>` : html`<span class="muted">never</span>`) },
    { key: 'updatedAt', label: 'Updated', render: (s) => html`<${When} iso=${s.updatedAt} />` },
  ];
  const writer = can(me, 'operator');

  return html`<${Page} title="Services" subtitle="Every onboarded service, by environment and direction."
    actions=${html`<${Can} role="operator"><${Link} class="button" href=${`${BASE}/onboard`}>Onboard a service<//><//>`}>
    <${FilterBar} fields=${filterFields} values=${filters} onChange=${(v) => setQuery({ ...v, page: '' })} />
    ${writer && html`<div class="bulk" role="group" aria-label="Bulk actions">
      <span>${selected.size} selected</span>
      ${bulkActions.map(([a, label]) => html`<button type="button" class="secondary" disabled=${selected.size === 0} onClick=${() => runBulk(a, label)}>${label}</button>`)}
    </div>`}
    ${result && html`<${BulkResult} result=${result} onClose=${() => setResult(null)} />`}
    <${Loaded} state=${list}>${(data) => html`
      <${DataTable} caption="Services" columns=${columns} rows=${data.items} rowKey=${(s) => s.serviceId}
        selected=${writer ? selected : null} onSelect=${setSelected}
        empty=${Object.values(filters).some(Boolean) ? 'No service matches these filters.' : 'No services yet. Onboard one from a WSDL.'} />
      <${Pager} data=${data} onPage=${(p) => setQuery({ page: p })} />`}<//>
    ${dialog}
  <//>`;
}

function BulkResult({ result, onClose }) {
  const failed = result.items.filter((i) => i.error);
  return html`<div class="card notice">
    <p><strong>${result.action}</strong>: ${result.summary.succeeded ?? 0} succeeded, ${result.summary.failed ?? 0} failed.${' '}
      <button type="button" class="link" onClick=${onClose}>Dismiss</button></p>
    ${failed.map((i) => html`<${ErrorBox} title=${i.serviceId} error=${i.error} />`)}
  </div>`;
}
