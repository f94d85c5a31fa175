// Settings, access (role and permission bindings), alert-mail history and
// who am I.
import { html, useState } from '../lib/html.js';
import { get } from '../lib/api.js';
import { setQuery } from '../lib/router.js';
import { Can, useSession, can } from '../lib/session.js';
import { Page } from '../components/page.js';
import { Tabs, TabPanel } from '../components/tabs.js';
import { DataTable, Pager } from '../components/table.js';
import { Field, When, Status, useAsync, Loaded, KeyValues, Badge } from '../components/ui.js';
import { useSave, send } from './service_common.js';
import { Access } from './settings_access.js';

const tabs = [['general', 'Settings'], ['access', 'Roles and permissions'], ['mail', 'Alert mail history'], ['me', 'Who am I']];

export function Settings({ query }) {
  const tab = query.get('tab') || 'general';
  return html`<${Page} title="Settings and access" subtitle="Runtime-mutable settings, who may do what, and alert delivery.">
    <${Tabs} label="Settings sections" tabs=${tabs} current=${tab} onSelect=${(t) => setQuery({ tab: t, page: '' })} />
    <${TabPanel} id=${tab}>
      ${tab === 'general' && html`<${GeneralSettings} />`}
      ${tab === 'access' && html`<${Access} />`}
      ${tab === 'mail' && html`<${MailHistory} query=${query} />`}
      ${tab === 'me' && html`<${Me} />`}
    <//>
  <//>`;
}

// groupOf files a setting under a heading by its name.
function groupOf(name) {
  if (name.startsWith('smtp_') || name.startsWith('alert')) return 'Alert mail (SMTP)';
  if (name.startsWith('gateway_') || name.startsWith('outbound_')) return 'Network';
  if (name.includes('debug')) return 'Debug';
  return 'Runtime';
}
const enums = { smtp_tls_mode: ['starttls', 'tls', 'none'] };
const isCredential = (v) => v && typeof v === 'object' && !Array.isArray(v) && 'set' in v;

function GeneralSettings() {
  const settings = useAsync(() => get('/settings'), []);
  return html`<${Loaded} state=${settings}>${(s) => html`<${SettingsForm} key=${JSON.stringify(s)} initial=${s} onSaved=${settings.reload} />`}<//>`;
}

function SettingsForm({ initial, onSaved }) {
  const { me } = useSession();
  const admin = can(me, 'admin');
  const toText = (v) => (Array.isArray(v) ? v.join('\n') : isCredential(v) ? '' : v);
  const [form, setForm] = useState(Object.fromEntries(Object.entries(initial).map(([k, v]) => [k, toText(v)])));
  const [clear, setClear] = useState({});
  const save = useSave();
  const submit = (e) => {
    e.preventDefault();
    const body = {};
    for (const [k, v0] of Object.entries(initial)) {
      const v = form[k];
      if (isCredential(v0)) {
        if (v) body[k] = v; else if (clear[k]) body[k] = null;
      } else if (Array.isArray(v0)) {
        const list = String(v).split(/[\n,]+/).map((x) => x.trim()).filter(Boolean);
        if (JSON.stringify(list) !== JSON.stringify(v0)) body[k] = list;
      } else if (typeof v0 === 'number') {
        if (Number(v) !== v0) body[k] = Number(v);
      } else if (v !== v0) body[k] = v;
    }
    if (Object.keys(body).length === 0) return;
    save.run(async () => { await send('PATCH', '/settings', body); onSaved(); }, `Saved ${Object.keys(body).join(', ')}`);
  };
  const groups = {};
  Object.keys(initial).sort().forEach((k) => { (groups[groupOf(k)] ||= []).push(k); });
  const control = (k, a) => {
    const v0 = initial[k];
    if (typeof v0 === 'boolean') return html`<input ...${a} type="checkbox" checked=${!!form[k]} onChange=${(e) => setForm({ ...form, [k]: e.target.checked })} />`;
    if (enums[k]) return html`<select ...${a} value=${form[k]} onChange=${(e) => setForm({ ...form, [k]: e.target.value })}>${enums[k].map((o) => html`<option>${o}</option>`)}</select>`;
    if (Array.isArray(v0)) return html`<textarea ...${a} class="mono" rows="3" value=${form[k]} onInput=${(e) => setForm({ ...form, [k]: e.target.value })}></textarea>`;
    if (isCredential(v0)) return html`<input ...${a} type="password" autocomplete="new-password" value=${form[k]} onInput=${(e) => setForm({ ...form, [k]: e.target.value })} />`;
    return html`<input ...${a} type=${typeof v0 === 'number' ? 'number' : 'text'} value=${form[k]} onInput=${(e) => setForm({ ...form, [k]: e.target.value })} />`;
  };
  const hint = (k) => {
    const v0 = initial[k];
    if (isCredential(v0)) return html`Write-only: currently ${v0.set ? html`set, updated <${When} iso=${v0.lastUpdatedAt} /> by ${v0.lastUpdatedBy}` : 'not set'}.`;
    if (Array.isArray(v0)) return 'One per line.';
    return undefined;
  };
  return html`<form class="stack" onSubmit=${submit}>
    ${!admin && html`<p class="notice">Settings change only with the admin role; you can read them.</p>`}
    ${Object.entries(groups).map(([g, keys]) => html`<fieldset class="grid card" disabled=${!admin}><legend>${g}</legend>
      ${keys.map((k) => html`<div class="field-with-clear"><${Field} label=${k} hint=${hint(k)}>${(a) => control(k, a)}<//>
        ${isCredential(initial[k]) && initial[k].set && html`<label class="check"><input type="checkbox" checked=${!!clear[k]} onChange=${(e) => setClear({ ...clear, [k]: e.target.checked })} /> Clear ${k}</label>`}</div>`)}
    </fieldset>`)}
    <${Can} role="admin"><div class="actions sticky-actions"><button type="submit" disabled=${save.busy}>Save changed settings</button></div><//>
    ${save.errorBox}
  </form>`;
}

function MailHistory({ query }) {
  const page = Number(query.get('page') || 1);
  const list = useAsync(() => get('/settings/alert-mail-history', { page, pageSize: 25 }), [page]);
  const test = useSave();
  const [sent, setSent] = useState(null);
  const sendTest = () => test.run(async () => {
    setSent(await send('POST', '/settings:test-alert-mail'));
    list.reload();
  });
  const columns = [
    { key: 'attemptedAt', label: 'When', render: (m) => html`<${When} iso=${m.attemptedAt} />` },
    { key: 'kind', label: 'Kind', render: (m) => html`${m.kind}${m.actorEmail && html`<div class="muted small">by ${m.actorEmail}</div>`}` },
    { key: 'status', label: 'Result', render: (m) => html`<${Status} value=${m.status} />` },
    { key: 'subject', label: 'Subject', render: (m) => html`${m.subject}${m.serviceUri && html`<div class="muted small"><code>${m.serviceUri}</code></div>`}` },
    { key: 'recipients', label: 'Recipients', render: (m) => (m.recipients || []).join(', ') },
    { key: 'error', label: 'Error', render: (m) => m.error || '' },
  ];
  return html`<div class="stack">
    <${Can} role="admin"><div class="toolbar">
      <button type="button" class="secondary" disabled=${test.busy} onClick=${sendTest}>Send a test mail</button>
      <span class="muted small">to alert_recipients with the current SMTP settings</span>
    </div>${test.errorBox}
    ${sent && html`<p role="status">Test mail: <${Status} value=${sent.status} /> ${sent.error || `to ${(sent.recipients || []).join(', ')}`}</p>`}<//>
    <${Loaded} state=${list}>${(d) => html`<${DataTable} caption="Alert mail history" columns=${columns} rows=${d.items}
      rowKey=${(m) => m.mailId} empty="No alert mail has been attempted." /><${Pager} data=${d} onPage=${(p) => setQuery({ page: p })} />`}<//>
  </div>`;
}

function Me() {
  const { me } = useSession();
  return html`<div class="card stack">
    <${KeyValues} items=${[
      ['E-mail', me.email], ['Role', html`<${Badge} kind="info">${me.role}<//>`], ['Tenant', me.tenantId],
      ['Groups', me.groups.length ? me.groups.join(', ') : html`<span class="muted">none sent by the identity proxy</span>`],
    ]} />
    <h2>Where the role comes from</h2>
    <${DataTable} caption="Role sources" rowKey=${(s) => `${s.kind}-${s.group || ''}-${s.bindingId || ''}`} rows=${me.sources} columns=${[
      { key: 'kind', label: 'Source' }, { key: 'role', label: 'Role' }, { key: 'tenantId', label: 'Tenant' },
      { key: 'detail', label: 'Detail', render: (s) => s.group || s.bindingId || '' }]} />
    <p class="muted small">The highest role of every source wins. Readers see everything and change nothing; operators change services; admins also change settings and access.</p>
  </div>`;
}
