// Audit events: every change through the admin API, with who, what, the
// result and the before/after state (secrets redacted by the server).
import { html, useState } from '../lib/html.js';
import { get } from '../lib/api.js';
import { setQuery } from '../lib/router.js';
import { isoFromLocal, windowOptions, timeZone } from '../lib/format.js';
import { Page } from '../components/page.js';
import { DataTable, Pager, FilterBar } from '../components/table.js';
import { Status, When, useAsync, Loaded } from '../components/ui.js';
import { Code, SideBySide } from '../components/code.js';

const filterFields = [
  { name: 'messageContains', label: 'Message contains' },
  { name: 'actorEmail', label: 'Actor e-mail' },
  { name: 'actorRole', label: 'Actor role', type: 'select', options: [['reader', 'reader'], ['operator', 'operator'], ['admin', 'admin']] },
  { name: 'actionType', label: 'Action', placeholder: 'e.g. service.update' },
  { name: 'entityType', label: 'Entity type', placeholder: 'e.g. service' },
  { name: 'entityId', label: 'Entity id' },
  { name: 'result', label: 'Result', type: 'select', options: [['success', 'success'], ['failure', 'failure']] },
  { name: 'correlationId', label: 'Correlation id' },
  { name: 'window', label: 'Time', type: 'select', options: windowOptions },
  { name: 'since', label: `From (${timeZone})`, type: 'datetime-local' },
  { name: 'until', label: `To (${timeZone})`, type: 'datetime-local' },
];

export function Audit({ query }) {
  const filters = Object.fromEntries(filterFields.map((f) => [f.name, query.get(f.name) || '']));
  const page = Number(query.get('page') || 1);
  const list = useAsync(() => get('/audit-events', { ...filters, since: isoFromLocal(filters.since), until: isoFromLocal(filters.until), page, pageSize: 25 }), [query.toString()]);
  const [open, setOpen] = useState(null);
  const columns = [
    { key: 'occurredAt', label: 'When', render: (e) => html`<${When} iso=${e.occurredAt} />` },
    { key: 'actor', label: 'Actor', render: (e) => html`${e.actorEmail}<div class="muted small">${e.actorRole}</div>` },
    { key: 'actionType', label: 'Action', render: (e) => html`<code>${e.actionType}</code>` },
    { key: 'entity', label: 'Entity', render: (e) => html`${e.entityType}<div class="muted small"><code>${e.entityId}</code></div>` },
    { key: 'result', label: 'Result', render: (e) => html`<${Status} value=${e.result} />` },
    { key: 'message', label: 'Message' },
    { key: 'more', label: 'Change', render: (e) => html`<button type="button" class="link" aria-expanded=${open === e.eventId ? 'true' : 'false'}
      onClick=${() => setOpen(open === e.eventId ? null : e.eventId)}>${open === e.eventId ? 'Hide' : 'Show'}</button>` },
  ];
  return html`<${Page} title="Audit events" subtitle="Every change made through the admin API, newest first.">
    <${FilterBar} fields=${filterFields} values=${filters} onChange=${(v) => setQuery({ ...v, page: '' })} />
    <${Loaded} state=${list}>${(d) => {
      const ev = d.items.find((e) => e.eventId === open);
      return html`<${DataTable} caption="Audit events" columns=${columns} rows=${d.items} rowKey=${(e) => e.eventId} empty="No audit event matches." />
        ${ev && html`<div class="card"><p>Correlation id <code>${ev.correlationId}</code></p><${SideBySide}>
          <${Code} title="Before" lang="json" text=${ev.beforeState == null ? '' : JSON.stringify(ev.beforeState, null, 2)} />
          <${Code} title="After" lang="json" text=${ev.afterState == null ? '' : JSON.stringify(ev.afterState, null, 2)} />
        <//></div>`}
        <${Pager} data=${d} onPage=${(p) => setQuery({ page: p })} />`;
    }}<//>
  <//>`;
}
