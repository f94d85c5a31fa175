// Backend profiles of a service: endpoints, auth types and write-only
// credentials, mTLS, timeouts, routing priority and weight, health and
// circuit-breaker state, connection tests.
import { html, useState } from '../lib/html.js';
import { get } from '../lib/api.js';
import { Can } from '../lib/session.js';
import { setQuery } from '../lib/router.js';
import { DataTable } from '../components/table.js';
import { Status, Badge, When, useAsync, Loaded, ErrorBox } from '../components/ui.js';
import { useConfirm } from '../components/dialog.js';
import { Section } from '../components/page.js';
import { useSave, send } from './service_common.js';
import { ProfileForm } from './service_profile_form.js';

export function Backends({ service, onChange }) {
  const profiles = useAsync(() => get(`/services/${service.serviceId}/backend-profiles`), [service.serviceId]);
  const health = useAsync(() => get(`/services/${service.serviceId}/backend-health`), [service.serviceId]);
  const [editing, setEditing] = useState(null); // a profile, 'new' or null
  const [tests, setTests] = useState({});
  const [ask, dialog] = useConfirm();
  const tester = useSave();
  const reload = () => { profiles.reload(); health.reload(); onChange(); };

  const testConnection = (p) => tester.run(async () => {
    const res = await send('POST', `/backend-profiles/${p.profileId}:test-connection`);
    setTests({ ...tests, [p.profileId]: res });
  });
  const byId = {};
  (health.data?.backends || []).forEach((b) => { byId[b.profileId] = b; });

  const columns = [
    { key: 'name', label: 'Profile', render: (p) => html`<strong>${p.name}</strong>${p.isDefault && html` <${Badge} kind="info">default<//>`}<div class="muted small"><code>${p.endpointUrl}</code></div>` },
    { key: 'auth', label: 'Auth', render: (p) => html`${p.authType}${p.mtlsEnabled ? ' + mTLS' : ''}` },
    { key: 'routing', label: 'Priority / weight', render: (p) => `${p.routingPriority} / ${p.routingWeight}` },
    { key: 'timeout', label: 'Timeout / retries', render: (p) => `${p.timeoutMs == null ? 'default' : `${p.timeoutMs} ms`} / ${p.retryCount == null ? 'default' : p.retryCount}` },
    { key: 'health', label: 'Health', render: (p) => { const h = byId[p.profileId]; return h ? html`<${Status} value=${h.healthy ? 'healthy' : 'unhealthy'} />
      <div class="muted small">${h.checked ? html`checked <${When} iso=${h.lastCheckAt} />` : `not checked (${h.mode})`}</div>${h.lastError && html`<div class="small">${h.lastError}</div>`}` : '—'; } },
    { key: 'breaker', label: 'Breaker', render: (p) => { const h = byId[p.profileId]; return h ? html`<${Status} value=${h.breaker} />` : '—'; } },
    { key: 'actions', label: 'Actions', render: (p) => html`<${Can} role="operator"><div class="row-actions">
      <button type="button" class="small secondary" onClick=${() => setEditing(p)}>Edit</button>
      <button type="button" class="small secondary" disabled=${tester.busy} onClick=${() => testConnection(p)}>Test connection</button>
      <button type="button" class="small secondary" onClick=${() => setQuery({ tab: 'try', profile: p.profileId })}>Test an operation</button>
      <button type="button" class="small danger" onClick=${() => ask({ title: `Delete profile ${p.name}?`, danger: true, confirmLabel: 'Delete',
        body: html`<p>Requests stop going to <code>${p.endpointUrl}</code>. If it is the default, another profile becomes the default.</p>`,
        action: async () => { await send('DELETE', `/backend-profiles/${p.profileId}`); reload(); } })}>Delete</button>
    </div><//>` },
  ];
  return html`<div class="stack">
    <p class="muted">Routing: <strong>${service.backendRoutingMode}</strong>; health checks: <strong>${service.backendHealthCheckMode}</strong>${
      service.backendHealthCheckMode === 'none' ? '' : ` every ${service.backendHealthCheckIntervalSec} s`}${' '}(change them under Overview). Health is this instance's view.</p>
    <div class="toolbar"><${Can} role="operator"><button type="button" onClick=${() => setEditing('new')}>Add backend profile</button><//>
      <button type="button" class="secondary" onClick=${() => health.reload()}>Refresh health</button></div>
    <${ErrorBox} error=${health.error} title="Health" />
    <${Loaded} state=${profiles}>${(list) => html`<${DataTable} caption="Backend profiles" columns=${columns} rows=${list} rowKey=${(p) => p.profileId}
      empty="No backend profile: the runtime answers 503 until one exists." />`}<//>
    ${tester.errorBox}
    ${Object.entries(tests).map(([id, res]) => html`<${ConnectionResult} key=${id} res=${res} name=${(profiles.data || []).find((p) => p.profileId === id)?.name} />`)}
    ${editing && html`<${Section} id="profile-form" title=${editing === 'new' ? 'New backend profile' : `Edit ${editing.name}`}>
      <${ProfileForm} service=${service} profile=${editing === 'new' ? null : editing} onDone=${(saved) => { setEditing(null); if (saved) reload(); }} />
    <//>`}
    ${dialog}
  </div>`;
}

function ConnectionResult({ res, name }) {
  return html`<div class="card" role="status"><p>Connection test of <strong>${name}</strong>: <${Status} value=${res.status} /></p>
    <ol class="steps">${res.steps.map((s) => html`<li><${Status} value=${s.status} /> <strong>${s.name}</strong> ${s.durationMs} ms
      ${s.addresses && html` · ${s.addresses.join(', ')}`}${s.httpStatus ? ` · HTTP ${s.httpStatus}` : ''}${s.message && (s.name === 'wsSecurity'
        ? html`<p class="wss-explanation"><strong>WS-Security:</strong> ${s.message}</p>` : html` — ${s.message}`)}</li>`)}</ol></div>`;
}
