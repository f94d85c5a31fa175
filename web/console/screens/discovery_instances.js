// Connector instances (POST/GET/DELETE /ingest-instances): the load
// balancers and gateways that send traffic logs. A new instance's token is
// shown once, when it is registered.
import { html, useState } from '../lib/html.js';
import { get, api } from '../lib/api.js';
import { Can } from '../lib/session.js';
import { DataTable } from '../components/table.js';
import { Field, When, useAsync, Loaded, Status, ErrorBox, announce } from '../components/ui.js';
import { useConfirm } from '../components/dialog.js';
import { Section } from '../components/page.js';

export function Instances() {
  const list = useAsync(() => get('/ingest-instances'), []);
  const [ask, dialog] = useConfirm();
  const columns = [
    { key: 'name', label: 'Instance', render: (i) => html`<strong>${i.name}</strong><div class="muted small"><code>${i.instanceId}</code></div>` },
    { key: 'vendor', label: 'Vendor' },
    { key: 'tenantId', label: 'Tenant' },
    { key: 'status', label: 'Status', render: (i) => html`<${Status} value=${i.status} />${i.revokedAt ? html`<div class="muted small">revoked <${When} iso=${i.revokedAt} /> by ${i.revokedBy}</div>` : ''}` },
    { key: 'lastEventAt', label: 'Last event', render: (i) => html`<${When} iso=${i.lastEventAt} />` },
    { key: 'lastHeartbeatAt', label: 'Last heartbeat', render: (i) => html`<${When} iso=${i.lastHeartbeatAt} />` },
    { key: 'createdAt', label: 'Registered', render: (i) => html`<${When} iso=${i.createdAt} /><div class="muted small">by ${i.createdBy}</div>` },
    { key: 'actions', label: 'Actions', render: (i) => i.status === 'active' && html`<${Can} role="admin"><button type="button" class="small danger" onClick=${() => ask({
      title: `Revoke ${i.name}?`, danger: true, confirmLabel: 'Revoke',
      body: html`<p>Its token stops working at once: the connector's traffic logs are refused (401 S2R-ING-0401).</p>`,
      action: async () => { await api('DELETE', `/ingest-instances/${i.instanceId}`); list.reload(); } })}>Revoke</button><//>` },
  ];
  return html`<div class="stack">
    <${Loaded} state=${list}>${(d) => html`<${DataTable} caption="Connector instances" columns=${columns} rows=${Array.isArray(d) ? d : d.items || []}
      rowKey=${(i) => i.instanceId} empty="No connector instance is registered." />`}<//>
    <${Can} role="admin"><${Register} onDone=${list.reload} /><//>
    ${dialog}
  </div>`;
}

function Register({ onDone }) {
  const [form, setForm] = useState({ vendor: 'f5', name: '', tenantId: '' });
  const [state, setState] = useState({ busy: false, error: null, created: null });
  const set = (k) => (e) => setForm({ ...form, [k]: e.target.value });
  const submit = async (e) => {
    e.preventDefault();
    setState({ busy: true, error: null, created: null });
    const body = { vendor: form.vendor.trim(), name: form.name.trim() };
    if (form.tenantId.trim()) body.tenantId = form.tenantId.trim();
    try {
      const created = await api('POST', '/ingest-instances', body);
      setState({ busy: false, error: null, created });
      setForm({ ...form, name: '' });
      announce(`Registered ${created.name}: copy its token now`);
      onDone();
    } catch (error) {
      setState({ busy: false, error, created: null });
    }
  };
  const c = state.created;
  return html`<${Section} id="register" title="Register a connector instance">
    <form class="inline-form" onSubmit=${submit}>
      <${Field} label="Vendor" hint="f5 for a load balancer; any gateway name otherwise">${(a) => html`<input ...${a} required value=${form.vendor} onInput=${set('vendor')} />`}<//>
      <${Field} label="Name">${(a) => html`<input ...${a} required value=${form.name} onInput=${set('name')} />`}<//>
      <${Field} label="Tenant" hint="Optional: default">${(a) => html`<input ...${a} value=${form.tenantId} onInput=${set('tenantId')} />`}<//>
      <button type="submit" disabled=${state.busy}>Register</button>
    </form>
    <${ErrorBox} error=${state.error} />
    ${c && html`<div class="notice stack" role="status">
      <p><strong>${c.name}</strong> (${c.vendor}, tenant ${c.tenantId}) is registered. Its token is shown <strong>this once</strong>: s2r keeps only a hash.
        The connector sends it as <code>Authorization: Bearer …</code> to <code>/ingest/v1</code>.</p>
      <p class="token" aria-label="Ingest token">${c.token}</p>
      <div class="actions"><button type="button" class="secondary" onClick=${() => navigator.clipboard?.writeText(c.token)}>Copy the token</button>
        <button type="button" class="link" onClick=${() => setState({ ...state, created: null })}>I have stored it</button></div>
    </div>`}
  <//>`;
}
