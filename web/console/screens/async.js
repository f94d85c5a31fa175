// Async executions (DESIGN 9): publish calls whose result arrives later by
// SOAP callback. The list filters and pages them; the detail shows the
// result, fault or error and the stored callback, with the replay preview
// and the operator actions (screens/async_actions.js).
import { html, useState } from '../lib/html.js';
import { get } from '../lib/api.js';
import { setQuery } from '../lib/router.js';
import { isoFromLocal, windowOptions, timeZone, prettyJSON } from '../lib/format.js';
import { Page } from '../components/page.js';
import { DataTable, Pager, FilterBar } from '../components/table.js';
import { Status, When, useAsync, Loaded, KeyValues, Badge } from '../components/ui.js';
import { Code, SideBySide } from '../components/code.js';
import { Section } from '../components/page.js';
import { Probe } from './unavailable.js';
import { AsyncActions, ReplayPreview } from './async_actions.js';

const statuses = ['waiting_callback', 'completed', 'failed', 'expired'];
const filterFields = [
  { name: 'environment', label: 'Environment' },
  { name: 'serviceKey', label: 'Service key' },
  { name: 'operationKey', label: 'Operation key' },
  { name: 'status', label: 'Status', type: 'select', options: statuses.map((s) => [s, s]) },
  { name: 'window', label: 'Time', type: 'select', options: windowOptions },
  { name: 'since', label: `From (${timeZone})`, type: 'datetime-local' },
  { name: 'until', label: `To (${timeZone})`, type: 'datetime-local' },
];

export function Async({ query }) {
  const [changes, setChanges] = useState(0);
  return html`<${Probe} title="Async executions" subtitle="Publish calls answered later by a SOAP callback: their state, result and the operator's remedies." path="/async-executions">
    <${Executions} query=${query} changes=${changes} />
    ${query.get('id') && html`<${Detail} key=${query.get('id')} id=${query.get('id')} onChange=${() => setChanges(changes + 1)} />`}
  <//>`;
}

function Executions({ query, changes }) {
  const filters = Object.fromEntries(filterFields.map((f) => [f.name, query.get(f.name) || '']));
  const page = Number(query.get('page') || 1);
  const list = useAsync(() => get('/async-executions', { ...filters, since: isoFromLocal(filters.since), until: isoFromLocal(filters.until), page, pageSize: 25 }),
    [JSON.stringify(filters), page, changes]);
  const open = query.get('id');
  const columns = [
    { key: 'correlationId', label: 'Execution', render: (e) => html`<button type="button" class="link mono" aria-pressed=${open === e.correlationId ? 'true' : 'false'}
      onClick=${() => setQuery({ id: e.correlationId })}>${e.correlationId}</button>` },
    { key: 'status', label: 'Status', render: (e) => html`<${Status} value=${e.status} />` },
    { key: 'operation', label: 'Service / operation', render: (e) => html`<code>${e.direction}/${e.environment}/${e.serviceKey}</code><div class="muted small">${e.operationKey}</div>` },
    { key: 'createdAt', label: 'Started', render: (e) => html`<${When} iso=${e.createdAt} />` },
    { key: 'expiresAt', label: 'Expires', render: (e) => (e.status === 'waiting_callback' ? html`<${When} iso=${e.expiresAt} />` : html`<span class="muted">—</span>`) },
    { key: 'finishedAt', label: 'Finished', render: (e) => html`<${When} iso=${e.finishedAt} />` },
    { key: 'callback', label: 'Callback', render: (e) => (e.hasCallback ? html`<${Badge} kind="info">stored<//>` : html`<span class="muted">none</span>`) },
  ];
  return html`<div class="stack">
    <${FilterBar} fields=${filterFields} values=${filters} onChange=${(v) => setQuery({ ...v, page: '', id: '' })} />
    <${Loaded} state=${list}>${(d) => html`<${DataTable} caption="Async executions" columns=${columns} rows=${d.items}
      rowKey=${(e) => e.correlationId} empty="No async execution matches." /><${Pager} data=${d} onPage=${(p) => setQuery({ page: p })} />`}<//>
  </div>`;
}

function Detail({ id, onChange }) {
  const detail = useAsync(() => get(`/async-executions/${encodeURIComponent(id)}`), [id]);
  const changed = () => { detail.reload(); onChange(); };
  return html`<${Loaded} state=${detail} label="Loading the execution">${(d) => {
    const e = d.execution;
    return html`<${Section} id="execution" title=${`Execution ${e.correlationId}`}>
      <${KeyValues} items=${[
        ['Status', html`<${Status} value=${e.status} />${d.replayable ? html` <span class="muted small">replayable</span>` : ''}`],
        ['Operation', html`<code>${e.direction}/${e.environment}/${e.serviceKey}</code> ${e.operationKey}`],
        ['Poll path', html`<code>${e.pollPath}</code>`],
        ['Backend', e.backendTarget],
        ['Started', html`<${When} iso=${e.createdAt} />`],
        ['Expires', html`<${When} iso=${e.expiresAt} />`],
        ['Callback received', html`<${When} iso=${e.callbackAt} />`],
        ['Finished', html`<${When} iso=${e.finishedAt} />`],
      ]} />
      ${d.payloadsWithheld && html`<p class="notice">Results, faults and callbacks are business data: they are shown to operators and admins only.</p>`}
      ${!d.payloadsWithheld && html`<${SideBySide}>
        <${Code} title=${e.fault ? 'Fault' : e.error ? 'Error' : 'Result'} lang="json" text=${prettyJSON(e.fault ?? e.error ?? e.result ?? '')} />
        <${Code} title="Stored callback" lang="xml" text=${d.callback || ''} />
      <//>`}
      <${ReplayPreview} id=${e.correlationId} />
      <${AsyncActions} detail=${d} onChange=${changed} />
    <//>`;
  }}<//>`;
}
