// The backend profile form. Credentials are write-only: the form shows
// whether each is set (and when, by whom), takes a new value, and never
// receives the stored one.
import { html, useState } from '../lib/html.js';
import { Field, When } from '../components/ui.js';
import { useSave, send } from './service_common.js';
import { WSSecuritySection, ProtectionSection, wssForm, wssBody, wssCredentials, protectionKeys, fieldError } from './service_profile_wss.js';

const authTypes = ['none', 'basic', 'bearer', 'api_key_header', 'oauth2_client_credentials'];
// credentialsOf lists the credentials an auth type (and mTLS) uses.
function credentialsOf(auth, mtls) {
  const c = { basic: ['password'], bearer: ['token'], api_key_header: ['apiKey'], oauth2_client_credentials: ['clientSecret'] }[auth] || [];
  return mtls ? [...c, 'clientKeyPem'] : c;
}
const credLabels = { password: 'Password', token: 'Bearer token', apiKey: 'API key', clientSecret: 'Client secret', clientKeyPem: 'Client private key (PEM)',
  wssPassword: 'WS-Security password', wssSigningKeyPem: 'WS-Security signing key (PEM)' };
const pemCredentials = ['clientKeyPem', 'wssSigningKeyPem'];
const numbers = [
  ['timeoutMs', 'Timeout (ms)', 'Empty: default_timeout_ms'], ['retryCount', 'Retries', 'Empty: default_retry_count'],
  ['routingPriority', 'Routing priority', 'Lower first'], ['routingWeight', 'Routing weight', 'round_robin share'],
  ['connectTimeoutMs', 'Connect timeout (ms)'], ['tlsHandshakeTimeoutMs', 'TLS handshake timeout (ms)'],
  ['idleConnTimeoutMs', 'Idle connection timeout (ms)'], ['maxIdleConnsPerHost', 'Idle connections per host'],
];
const texts = {
  basic: [['username', 'Username']],
  api_key_header: [['apiKeyHeaderName', 'Header name', 'Default X-API-Key']],
  oauth2_client_credentials: [['tokenUrl', 'Token URL'], ['clientId', 'Client id'], ['scope', 'Scope', 'Optional']],
};

export function ProfileForm({ service, profile, onDone }) {
  const p = profile || { name: '', endpointUrl: '', authType: 'none', mtlsEnabled: false, isDefault: false, healthCheckUrl: '', caCertPem: '', clientCertPem: '', credentials: {} };
  const [form, setForm] = useState({ ...p, timeoutMs: p.timeoutMs ?? '', retryCount: p.retryCount ?? '', ...wssForm(p.wsSecurity), wsAddressing: !!p.wsAddressing,
    maxConcurrentRequests: p.maxConcurrentRequests ?? '', maxRequestsPerSecond: p.maxRequestsPerSecond ?? '', queueTimeoutMs: p.queueTimeoutMs || '' });
  const [creds, setCreds] = useState({});
  const [clear, setClear] = useState({});
  const save = useSave();
  const set = (k, v) => setForm({ ...form, [k]: v });

  const submit = (e) => {
    e.preventDefault();
    const body = { name: form.name, endpointUrl: form.endpointUrl.trim(), authType: form.authType, mtlsEnabled: !!form.mtlsEnabled,
      healthCheckUrl: form.healthCheckUrl || '', isDefault: !!form.isDefault };
    for (const [k] of [...(texts[form.authType] || [])]) body[k] = form[k] || '';
    if (form.mtlsEnabled) { body.clientCertPem = form.clientCertPem || ''; body.caCertPem = form.caCertPem || ''; }
    for (const [k] of numbers) {
      if (form[k] === '' || form[k] === undefined) { if (profile && (k === 'timeoutMs' || k === 'retryCount')) body[k] = null; } else body[k] = Number(form[k]);
    }
    body.wsSecurity = wssBody(form);
    body.wsAddressing = !!form.wsAddressing;
    for (const k of protectionKeys) {
      const v = form[k] === '' || form[k] === undefined ? null : Number(form[k]);
      body[k] = k === 'queueTimeoutMs' ? (v ?? 0) : v;
    }
    const c = {};
    for (const k of [...credentialsOf(form.authType, form.mtlsEnabled), ...wssCredentials(form)]) {
      if (creds[k]) c[k] = creds[k];
      else if (clear[k]) c[k] = null;
    }
    if (Object.keys(c).length) body.credentials = c;
    save.run(async () => {
      if (profile) await send('PATCH', `/backend-profiles/${profile.profileId}`, body);
      else await send('POST', `/services/${service.serviceId}/backend-profiles`, body);
      onDone(true);
    }, profile ? 'Backend profile saved' : 'Backend profile created');
  };

  const credential = (k) => html`<${Credential} key=${k} name=${k} meta=${(p.credentials || {})[k]} error=${fieldError(save.error, `credentials.${k}`)}
    value=${creds[k] || ''} onValue=${(v) => setCreds({ ...creds, [k]: v })} clear=${!!clear[k]} onClear=${(v) => setClear({ ...clear, [k]: v })} />`;
  const input = (k, label, hint, type = 'text') => html`<${Field} label=${label} hint=${hint} error=${fieldError(save.error, k)}>${(a) => html`<input ...${a} type=${type} value=${form[k] ?? ''} onInput=${(e) => set(k, e.target.value)} />`}<//>`;
  return html`<form class="stack" onSubmit=${submit} autocomplete="off">
    <fieldset class="grid"><legend>Endpoint</legend>
      ${input('name', 'Name')}
      <${Field} label="Endpoint URL" hint="http or https, no user information" wide>${(a) => html`<input ...${a} type="url" required value=${form.endpointUrl} onInput=${(e) => set('endpointUrl', e.target.value)} />`}<//>
      ${input('healthCheckUrl', 'Health check URL', 'For wsdl_fetch checks; default: the endpoint with ?wsdl', 'url')}
      <div class="field check"><label><input type="checkbox" checked=${!!form.isDefault} onChange=${(e) => set('isDefault', e.target.checked)} /> Default backend of the service</label></div>
    </fieldset>
    <fieldset class="grid"><legend>Authentication</legend>
      <${Field} label="Auth type">${(a) => html`<select ...${a} value=${form.authType} onChange=${(e) => set('authType', e.target.value)}>${authTypes.map((t) => html`<option>${t}</option>`)}</select>`}<//>
      ${(texts[form.authType] || []).map(([k, label, hint]) => input(k, label, hint))}
      <div class="field check"><label><input type="checkbox" checked=${!!form.mtlsEnabled} onChange=${(e) => set('mtlsEnabled', e.target.checked)} /> Mutual TLS (client certificate)</label></div>
      ${form.mtlsEnabled && html`<${Field} label="Client certificate (PEM)" wide>${(a) => html`<textarea ...${a} class="mono" rows="3" value=${form.clientCertPem} onInput=${(e) => set('clientCertPem', e.target.value)}></textarea>`}<//>
        <${Field} label="CA certificates (PEM)" hint="Optional: trust these instead of the system roots" wide>${(a) => html`<textarea ...${a} class="mono" rows="3" value=${form.caCertPem} onInput=${(e) => set('caCertPem', e.target.value)}></textarea>`}<//>`}
      ${credentialsOf(form.authType, form.mtlsEnabled).map(credential)}
    </fieldset>
    <fieldset class="grid"><legend>Timeouts and routing</legend>
      ${numbers.map(([k, label, hint]) => input(k, label, hint, 'number'))}
    </fieldset>
    <${WSSecuritySection} form=${form} set=${set} error=${save.error} credential=${credential} />
    <${ProtectionSection} form=${form} set=${set} error=${save.error} />
    <div class="actions"><button type="button" class="secondary" onClick=${() => onDone(false)}>Cancel</button>
      <button type="submit" disabled=${save.busy}>${profile ? 'Save profile' : 'Create profile'}</button></div>
    ${save.errorBox}
  </form>`;
}

function Credential({ name, meta, value, onValue, clear, onClear, error }) {
  const isSet = meta && meta.set;
  const state = isSet ? html`set · updated <${When} iso=${meta.lastUpdatedAt} /> by ${meta.lastUpdatedBy || 'unknown'}` : 'not set';
  return html`<div class="field wide">
    <${Field} label=${`${credLabels[name]} (write-only)`} hint=${html`Currently ${state}. Enter a value to ${isSet ? 'replace' : 'set'} it; the stored value is never shown.`} error=${error}>${(a) => pemCredentials.includes(name)
      ? html`<textarea ...${a} class="mono" rows="3" autocomplete="off" value=${value} onInput=${(e) => onValue(e.target.value)}></textarea>`
      : html`<input ...${a} type="password" autocomplete="new-password" value=${value} onInput=${(e) => onValue(e.target.value)} />`}<//>
    ${pemCredentials.includes(name) && html`<label class="small">Or choose a file: <input type="file" accept=".pem,.key" onChange=${(e) => { const f = e.target.files && e.target.files[0]; if (f) f.text().then(onValue); }} /></label>`}
    ${isSet && html`<label class="check"><input type="checkbox" checked=${clear} onChange=${(e) => onClear(e.target.checked)} /> Clear the stored ${credLabels[name].toLowerCase()}</label>`}
  </div>`;
}
