// Role bindings (identity-provider group → role) and permission bindings
// (e-mail → role).
import { html, useState } from '../lib/html.js';
import { get } from '../lib/api.js';
import { Can, useSession, can } from '../lib/session.js';
import { DataTable } from '../components/table.js';
import { Field, When, useAsync, Loaded } from '../components/ui.js';
import { useConfirm } from '../components/dialog.js';
import { Section } from '../components/page.js';
import { useSave, send } from './service_common.js';

const roles = ['reader', 'operator', 'admin'];

export function Access() {
  return html`<div class="stack"><${PermissionBindings} /><${RoleBindings} /></div>`;
}

function PermissionBindings() {
  const list = useAsync(() => get('/permission-bindings'), []);
  const [form, setForm] = useState({ email: '', role: 'reader', tenantId: '' });
  const add = useSave();
  const [ask, dialog] = useConfirm();
  const submit = (e) => {
    e.preventDefault();
    const body = { email: form.email.trim(), role: form.role };
    if (form.tenantId.trim()) body.tenantId = form.tenantId.trim();
    add.run(async () => { await send('POST', '/permission-bindings', body); setForm({ ...form, email: '' }); list.reload(); }, `${body.email} is ${body.role}`);
  };
  const columns = [
    { key: 'email', label: 'E-mail' }, { key: 'role', label: 'Role' }, { key: 'tenantId', label: 'Tenant' },
    { key: 'createdAt', label: 'Granted', render: (b) => html`<${When} iso=${b.createdAt} /><div class="muted small">by ${b.createdBy}</div>` },
    { key: 'actions', label: 'Actions', render: (b) => html`<${Can} role="admin"><button type="button" class="small danger" onClick=${() => ask({
      title: `Remove ${b.email}'s ${b.role} role?`, danger: true, confirmLabel: 'Remove',
      body: html`<p>${b.email} keeps only the roles of other sources.</p>`,
      action: async () => { await send('DELETE', `/permission-bindings/${b.bindingId}`); list.reload(); } })}>Remove</button><//>` },
  ];
  return html`<${Section} id="perm" title="Permission bindings (people)">
    <${Loaded} state=${list}>${(d) => html`<${DataTable} caption="Permission bindings" columns=${columns} rows=${d} rowKey=${(b) => b.bindingId} empty="No direct assignments." />`}<//>
    <${Can} role="admin"><form class="inline-form" onSubmit=${submit}>
      <${Field} label="E-mail">${(a) => html`<input ...${a} type="email" required value=${form.email} onInput=${(e) => setForm({ ...form, email: e.target.value })} />`}<//>
      <${Field} label="Role">${(a) => html`<select ...${a} value=${form.role} onChange=${(e) => setForm({ ...form, role: e.target.value })}>${roles.map((r) => html`<option>${r}</option>`)}</select>`}<//>
      <${Field} label="Tenant" hint="Optional: default">${(a) => html`<input ...${a} value=${form.tenantId} onInput=${(e) => setForm({ ...form, tenantId: e.target.value })} />`}<//>
      <button type="submit" disabled=${add.busy}>Grant</button>
    </form>${add.errorBox}<//>
    ${dialog}
  <//>`;
}

function RoleBindings() {
  const list = useAsync(() => get('/role-bindings'), []);
  return html`<${Section} id="roles" title="Role bindings (identity-provider groups)">
    <${Loaded} state=${list}>${(d) => html`<${RoleBindingsForm} key=${JSON.stringify(d)} initial=${d} onSaved=${list.reload} />`}<//>
  <//>`;
}

function RoleBindingsForm({ initial, onSaved }) {
  const { me } = useSession();
  const admin = can(me, 'admin');
  const [rows, setRows] = useState(initial.map((b) => ({ ...b })));
  const save = useSave();
  const update = (i, k, v) => setRows(rows.map((r, j) => (j === i ? { ...r, [k]: v } : r)));
  const submit = (e) => {
    e.preventDefault();
    const body = rows.map((r) => ({ group: r.group.trim(), role: r.role, ...(r.tenantId && r.tenantId.trim() ? { tenantId: r.tenantId.trim() } : {}) }));
    save.run(async () => { await send('PUT', '/role-bindings', body); onSaved(); }, 'Role bindings saved');
  };
  return html`<form class="stack" onSubmit=${submit}>
    <p class="muted small">The groups come from the identity proxy's <code>X-Idp-Authenticated-User-Groups</code> header. Saving replaces the whole list.</p>
    <div class="table-wrap"><table><caption class="sr-only">Role bindings</caption>
      <thead><tr><th scope="col">Group</th><th scope="col">Role</th><th scope="col">Tenant</th>${admin && html`<th scope="col"><span class="sr-only">Remove</span></th>`}</tr></thead>
      <tbody>${rows.length === 0 && html`<tr><td colspan="4" class="muted">No group bindings.</td></tr>`}
        ${rows.map((r, i) => html`<tr>
          <td data-label="Group"><input aria-label=${`Group, binding ${i + 1}`} readonly=${!admin} value=${r.group} onInput=${(e) => update(i, 'group', e.target.value)} /></td>
          <td data-label="Role"><select aria-label=${`Role, binding ${i + 1}`} disabled=${!admin} value=${r.role} onChange=${(e) => update(i, 'role', e.target.value)}>${roles.map((x) => html`<option>${x}</option>`)}</select></td>
          <td data-label="Tenant"><input aria-label=${`Tenant, binding ${i + 1}`} readonly=${!admin} value=${r.tenantId || ''} onInput=${(e) => update(i, 'tenantId', e.target.value)} /></td>
          ${admin && html`<td><button type="button" class="link" onClick=${() => setRows(rows.filter((_, j) => j !== i))}>Remove</button></td>`}
        </tr>`)}</tbody></table></div>
    <${Can} role="admin"><div class="actions">
      <button type="button" class="secondary" onClick=${() => setRows([...rows, { group: '', role: 'reader', tenantId: '' }])}>Add group</button>
      <button type="submit" disabled=${save.busy}>Save role bindings</button></div><//>
    ${save.errorBox}
  </form>`;
}
