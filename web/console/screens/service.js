// The service page: overview and settings, versions, operations with their
// rules and mappings, backends, consumer grants, OpenAPI and a try-out.
import { html, useState } from '../lib/html.js';
import { get } from '../lib/api.js';
import { Link, setQuery, navigate, BASE } from '../lib/router.js';
import { Can, useSession, can } from '../lib/session.js';
import { Page } from '../components/page.js';
import { Tabs, TabPanel } from '../components/tabs.js';
import { Status, Badge, KeyValues, When, Field, useAsync, Loaded } from '../components/ui.js';
import { useConfirm } from '../components/dialog.js';
import { useSave, send } from './service_common.js';
import { Versions } from './service_versions.js';
import { Operations } from './service_operations.js';
import { Backends } from './service_backends.js';
import { Grants, OpenAPIView, TryTab } from './service_extra.js';
import { ServiceTraffic } from './service_traffic.js';
import { CallIt } from './service_call.js';
import { SecurityTab } from './service_security.js';

const tabs = [
  ['overview', 'Overview'], ['versions', 'Versions'], ['operations', 'Operations'], ['backends', 'Backends'],
  ['grants', 'Consumer grants'], ['security', 'Security and limits'], ['openapi', 'OpenAPI'], ['try', 'Try'], ['traffic', 'Traffic'],
];

export function ServicePage({ serviceId, query }) {
  const svc = useAsync(() => get(`/services/${serviceId}`), [serviceId]);
  const tab = query.get('tab') || 'overview';
  return html`<${Loaded} state=${svc} label="Loading the service">${(s) => html`
    <${Page} title=${s.serviceKey} subtitle=${html`${s.serviceName} · ${s.direction} · ${s.environment} · <${ServiceState} service=${s} />${s.debugEnabled ? html` <${Badge} kind="warn">debug on<//>` : ''}`}
      actions=${html`<${Link} class="button secondary" href=${`${BASE}/traffic?environment=${encodeURIComponent(s.environment)}&serviceKey=${encodeURIComponent(s.serviceKey)}`}>Runtime logs<//>`}>
      <p class="breadcrumb"><${Link} href=${`${BASE}/services`}>Services<//> › ${s.serviceKey}</p>
      <${Tabs} label="Service sections" tabs=${tabs} current=${tab} onSelect=${(t) => setQuery({ tab: t, version: '', op: '', profile: '', window: '' })} />
      <${TabPanel} id=${tab}>
        ${tab === 'overview' && html`<${Overview} service=${s} onChange=${svc.reload} />`}
        ${tab === 'versions' && html`<${Versions} service=${s} onChange=${svc.reload} />`}
        ${tab === 'operations' && html`<${Operations} service=${s} query=${query} />`}
        ${tab === 'backends' && html`<${Backends} service=${s} onChange=${svc.reload} />`}
        ${tab === 'grants' && html`<${Grants} service=${s} />`}
        ${tab === 'security' && html`<${SecurityTab} service=${s} />`}
        ${tab === 'openapi' && html`<${OpenAPIView} service=${s} query=${query} />`}
        ${tab === 'try' && html`<${TryTab} service=${s} query=${query} />`}
        ${tab === 'traffic' && html`<${ServiceTraffic} service=${s} query=${query} />`}
      <//>
    <//>`}<//>`;
}

// ServiceState says whether the runtime serves the service: an enabled
// service without an active version (only a draft) is not served yet, so
// it is not shown as plainly "active".
function ServiceState({ service }) {
  if (service.status === 'active' && !service.activeVersionId) {
    return html`<${Badge} kind="warn" title="The service is enabled, but no version was activated: the runtime does not serve it until a draft is activated (Versions tab).">not served yet: no active version<//>`;
  }
  return html`<${Status} value=${service.status} />`;
}

const enumField = (label, name, options, hint) => ({ label, name, options, hint });
const fields = [
  enumField('Fault detail exposure', 'faultDetailExposureMode', ['safe', 'full'], 'safe: clients see only the fault code; full: the parsed fault.'),
  enumField('Backend routing', 'backendRoutingMode', ['single', 'active_passive', 'round_robin']),
  enumField('Health checks', 'backendHealthCheckMode', ['none', 'ping', 'tcp', 'wsdl_fetch']),
  enumField('Callback authentication', 'callbackAuthMode', ['none', 'shared_secret'], 'Async callbacks: shared_secret needs the secret in X-S2R-Callback-Secret or Authorization: Bearer.'),
];

function Overview({ service, onChange }) {
  const { me } = useSession();
  const writer = can(me, 'operator');
  const [form, setForm] = useState({
    serviceName: service.serviceName, description: service.description, faultDetailExposureMode: service.faultDetailExposureMode,
    backendRoutingMode: service.backendRoutingMode, backendHealthCheckMode: service.backendHealthCheckMode,
    backendHealthCheckIntervalSec: service.backendHealthCheckIntervalSec, callbackAuthMode: service.callbackAuthMode,
  });
  const [secret, setSecret] = useState('');
  const [clearSecret, setClearSecret] = useState(false);
  const secretMeta = service.callbackSecret;
  const save = useSave();
  const toggles = useSave();
  const [ask, dialog] = useConfirm();
  const patch = (body, ok) => toggles.run(async () => { await send('PATCH', `/services/${service.serviceId}`, body); onChange(); }, ok);
  const submit = (e) => {
    e.preventDefault();
    save.run(async () => {
      const body = { ...form, backendHealthCheckIntervalSec: Number(form.backendHealthCheckIntervalSec) };
      if (secret) body.callbackSecret = secret;
      else if (clearSecret) body.callbackSecret = null;
      await send('PATCH', `/services/${service.serviceId}`, body);
      setSecret('');
      setClearSecret(false);
      onChange();
    }, 'Service saved');
  };
  const set = (k) => (e) => setForm({ ...form, [k]: e.target.value });
  return html`<div class="stack">
    <div class="card">
      <${KeyValues} items=${[
        ['Service id', html`<code>${service.serviceId}</code>`],
        ['Runtime base path', html`<code>/${service.direction}/${service.environment}/${service.serviceKey}</code>`],
        ['Active version', service.activeVersionId ? html`<code>${service.activeVersionId}</code>` : 'none (activate a draft under Versions)'],
        ['Created', html`<${When} iso=${service.createdAt} />`],
        ['Updated', html`<${When} iso=${service.updatedAt} />`],
        ['Last traffic', html`<${When} iso=${service.lastTrafficAt} />`],
      ]} />
      <${Can} role="operator">
        <div class="actions" role="group" aria-label="Service switches">
          ${service.status === 'active'
            ? html`<button type="button" class="secondary" disabled=${toggles.busy} onClick=${() => patch({ status: 'disabled' }, 'Service disabled')}>Disable service</button>`
            : html`<button type="button" class="secondary" disabled=${toggles.busy} onClick=${() => patch({ status: 'active' }, 'Service enabled')}>Enable service</button>`}
          <button type="button" class="secondary" aria-pressed=${service.debugEnabled ? 'true' : 'false'} disabled=${toggles.busy}
            onClick=${() => patch({ debugEnabled: !service.debugEnabled }, service.debugEnabled ? 'Debug off' : 'Debug on')}>
            Debug logging: ${service.debugEnabled ? 'on' : 'off'}</button>
        </div>
      <//>
      ${toggles.errorBox}
    </div>
    ${service.direction !== 'gateway' && html`<${CallIt} service=${service} />`}
    <form class="card stack" onSubmit=${submit}>
      <h2>Settings</h2>
      <fieldset class="grid" disabled=${!writer}>
        <${Field} label="Service name">${(a) => html`<input ...${a} value=${form.serviceName} onInput=${set('serviceName')} />`}<//>
        <${Field} label="Description" wide>${(a) => html`<input ...${a} value=${form.description} onInput=${set('description')} />`}<//>
        ${fields.map((f) => html`<${Field} label=${f.label} hint=${f.hint}>${(a) => html`<select ...${a} value=${form[f.name]} onChange=${set(f.name)}>
          ${f.options.map((o) => html`<option value=${o}>${o}</option>`)}</select>`}<//>`)}
        <${Field} label="Health check interval (s)">${(a) => html`<input ...${a} type="number" min="1" value=${form.backendHealthCheckIntervalSec} onInput=${set('backendHealthCheckIntervalSec')} />`}<//>
        ${secretMeta && html`<div class="field">
          <${Field} label="Callback secret (write-only)" hint=${html`Currently ${secretMeta.set ? html`set, updated <${When} iso=${secretMeta.lastUpdatedAt} /> by ${secretMeta.lastUpdatedBy}` : 'not set'}. Enter a value to ${secretMeta.set ? 'replace' : 'set'} it; the stored one is never shown.`}>${(a) => html`
            <input ...${a} type="password" autocomplete="new-password" value=${secret} onInput=${(e) => setSecret(e.target.value)} />`}<//>
          ${secretMeta.set && html`<label class="check"><input type="checkbox" checked=${clearSecret} onChange=${(e) => setClearSecret(e.target.checked)} /> Clear the stored secret</label>`}
        </div>`}
      </fieldset>
      <${Can} role="operator"><div class="actions"><button type="submit" disabled=${save.busy}>Save settings</button></div><//>
      ${save.errorBox}
    </form>
    <${Can} role="operator">
      <div class="card danger-zone">
        <h2>Retire</h2>
        <p>Deprecating stops the runtime serving the service (404) and keeps its history. Permanent deletion (admin) removes it with its versions and backends; an active service must be disabled first.</p>
        <div class="actions">
          ${service.status !== 'deprecated' && html`<button type="button" class="danger" onClick=${() => ask({
            title: `Deprecate ${service.serviceKey}?`, confirmLabel: 'Deprecate', danger: true,
            body: html`<p>The runtime stops serving <code>${service.serviceKey}</code> in ${service.environment}.</p>`,
            action: async () => { await send('DELETE', `/services/${service.serviceId}`); onChange(); },
          })}>Deprecate</button>`}
          <${Can} role="admin"><button type="button" class="danger" onClick=${() => ask({
            title: `Delete ${service.serviceKey} permanently?`, confirmLabel: 'Delete permanently', danger: true,
            body: html`<p>This removes the service, its versions, operations, mappings, backend profiles, grants and datasets. It cannot be undone.</p>`,
            action: async () => { await send('DELETE', `/services/${service.serviceId}:hard-delete`); navigate(`${BASE}/services`); },
          })}>Delete permanently</button><//>
        </div>
      </div>
    <//>
    ${dialog}
  </div>`;
}
