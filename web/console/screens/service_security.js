// The security and limits tab of the service page: the inbound
// WS-Security policy of consume and gateway services (DESIGN 10.2) and the
// rate limit per client of every service (DESIGN 10.6). Inbound passwords
// are write-only: the panel says whether each is set and never shows it.
import { html, useState } from '../lib/html.js';
import { get } from '../lib/api.js';
import { useSession, can, Can } from '../lib/session.js';
import { Field, When, useAsync, Loaded } from '../components/ui.js';
import { useSave, send } from './service_common.js';
import { fieldError } from './service_profile_wss.js';

// SecurityTab shows the panels that apply to the service's direction.
export function SecurityTab({ service }) {
  return html`<div class="stack">
    ${service.direction !== 'publish' && html`<${InboundWSS} service=${service} />`}
    <${RateLimits} service=${service} />
  </div>`;
}

function InboundWSS({ service }) {
  const policy = useAsync(() => get(`/services/${service.serviceId}/inbound-ws-security`), [service.serviceId]);
  return html`<${Loaded} state=${policy}>${(p) => html`<${InboundForm} key=${p.updatedAt || 'none'} service=${service} p=${p} onSaved=${policy.reload} />`}<//>`;
}

const splitPEM = (text) => (text.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) || []);

function InboundForm({ service, p, onSaved }) {
  const { me } = useSession();
  const writer = can(me, 'operator');
  const [form, setForm] = useState({ mode: p.mode, requireSignature: p.requireSignature, requireTimestamp: p.requireTimestamp,
    maxClockSkewSeconds: p.maxClockSkewSeconds, certs: p.trustedCertificatesPem.join('\n') });
  const [users, setUsers] = useState(p.usernameTokens.map((u) => ({ username: u.username, meta: u.password, password: '' })));
  const save = useSave();
  const set = (k, v) => setForm({ ...form, [k]: v });
  const setUser = (i, k, v) => setUsers(users.map((u, j) => (j === i ? { ...u, [k]: v } : u)));
  const err = (f) => fieldError(save.error, f);
  const submit = (e) => {
    e.preventDefault();
    const body = { mode: form.mode, requireSignature: !!form.requireSignature, requireTimestamp: !!form.requireTimestamp,
      maxClockSkewSeconds: Number(form.maxClockSkewSeconds || 0), trustedCertificatesPem: splitPEM(form.certs),
      usernameTokens: users.map((u) => (u.password ? { username: u.username, password: u.password } : { username: u.username })) };
    if (form.certs.trim() && body.trustedCertificatesPem.length === 0) body.trustedCertificatesPem = [form.certs.trim()];
    save.run(async () => { await send('PUT', `/services/${service.serviceId}/inbound-ws-security`, body); onSaved(); }, 'Inbound WS-Security saved');
  };
  const check = (k, label) => html`<div class="field check"><label><input type="checkbox" checked=${!!form[k]} onChange=${(e) => set(k, e.target.checked)} /> ${label}</label></div>`;
  return html`<form class="card stack" onSubmit=${submit} autocomplete="off" aria-label="Inbound WS-Security">
    <h2>Inbound WS-Security</h2>
    <p class="muted">What callers of <code>${service.serviceKey}</code> must put in their <code>wsse:Security</code> header. Last change: ${p.updatedAt ? html`<${When} iso=${p.updatedAt} /> by ${p.updatedBy}` : 'never'}.</p>
    <fieldset class="grid" disabled=${!writer}>
      <${Field} label="Mode" hint="off: the header is not read; optional: checked when present; required: refused without it." error=${err('mode')}>${(a) => html`
        <select ...${a} value=${form.mode} onChange=${(e) => set('mode', e.target.value)}>${['off', 'optional', 'required'].map((m) => html`<option>${m}</option>`)}</select>`}<//>
      <${Field} label="Max clock skew (s)" hint="0 means 300; at most 86400" error=${err('maxClockSkewSeconds')}>${(a) => html`
        <input ...${a} type="number" min="0" value=${form.maxClockSkewSeconds} onInput=${(e) => set('maxClockSkewSeconds', e.target.value)} />`}<//>
      ${check('requireSignature', 'Require a signature')}
      ${check('requireTimestamp', 'Require a timestamp')}
      <${Field} label="Trusted certificates (PEM)" hint="One or more certificates, pasted one after the other: the signer's, or its issuer's." error=${err('trustedCertificatesPem')} wide>${(a) => html`
        <textarea ...${a} class="mono" rows="4" value=${form.certs} onInput=${(e) => set('certs', e.target.value)}></textarea>`}<//>
      <fieldset class="field wide"><legend>Username tokens</legend>
        ${users.length === 0 && html`<p class="muted small">No username: only signatures (if required) are checked.</p>`}
        ${users.map((u, i) => html`<div class="grid" key=${i}>
          <${Field} label="Username" error=${err(`usernameTokens[${i}]`) && !err(`usernameTokens[${i}].password`) ? err(`usernameTokens[${i}]`) : ''}>${(a) => html`
            <input ...${a} value=${u.username} onInput=${(e) => setUser(i, 'username', e.target.value)} />`}<//>
          <${Field} label="Password (write-only)" hint=${u.meta && u.meta.set ? html`Currently set · updated <${When} iso=${u.meta.lastUpdatedAt} />. Leave empty to keep it.` : 'Not set: enter one.'}
            error=${err(`usernameTokens[${i}].password`)}>${(a) => html`
            <input ...${a} type="password" autocomplete="new-password" value=${u.password} onInput=${(e) => setUser(i, 'password', e.target.value)} />`}<//>
          ${writer && html`<div class="field"><button type="button" class="small secondary" onClick=${() => setUsers(users.filter((_, j) => j !== i))}>Remove ${u.username || 'user'}</button></div>`}
        </div>`)}
        ${writer && html`<button type="button" class="small secondary" onClick=${() => setUsers([...users, { username: '', password: '' }])}>Add a username</button>`}
      </fieldset>
    </fieldset>
    <${Can} role="operator"><div class="actions"><button type="submit" disabled=${save.busy}>Save inbound WS-Security</button></div><//>
    ${save.errorBox}
  </form>`;
}

function RateLimits({ service }) {
  const limits = useAsync(() => get(`/services/${service.serviceId}/rate-limits`), [service.serviceId]);
  return html`<${Loaded} state=${limits}>${(l) => html`<${RateForm} key=${JSON.stringify(l)} service=${service} l=${l} onSaved=${limits.reload} />`}<//>`;
}

function RateForm({ service, l, onSaved }) {
  const { me } = useSession();
  const key = l.clientKey || 'ip';
  const [form, setForm] = useState({ on: !!l.clientKey, kind: key.startsWith('header:') ? 'header' : 'ip', header: key.startsWith('header:') ? key.slice(7) : '',
    requestsPerMinute: l.requestsPerMinute ?? 600, burst: l.burst ?? '' });
  const save = useSave();
  const set = (k, v) => setForm({ ...form, [k]: v });
  const err = (f) => fieldError(save.error, f);
  const submit = (e) => {
    e.preventDefault();
    const body = form.on ? { clientKey: form.kind === 'ip' ? 'ip' : `header:${form.header}`, requestsPerMinute: Number(form.requestsPerMinute) } : {};
    if (form.on && form.burst !== '') body.burst = Number(form.burst);
    save.run(async () => { await send('PUT', `/services/${service.serviceId}/rate-limits`, body); onSaved(); }, form.on ? 'Rate limit saved' : 'Rate limit removed');
  };
  return html`<form class="card stack" onSubmit=${submit} aria-label="Rate limits">
    <h2>Rate limits</h2>
    <p class="muted">A client over its limit is answered 429 without reaching the backend. Counted on each instance separately.</p>
    <fieldset class="grid" disabled=${!can(me, 'operator')}>
      <div class="field check"><label><input type="checkbox" checked=${form.on} onChange=${(e) => set('on', e.target.checked)} /> Limit each client</label></div>
      ${form.on && html`
        <${Field} label="Client identified by" error=${err('clientKey')}>${(a) => html`<select ...${a} value=${form.kind} onChange=${(e) => set('kind', e.target.value)}>
          <option value="ip">its address (ip)</option><option value="header">a request header</option></select>`}<//>
        ${form.kind === 'header' && html`<${Field} label="Header name" hint="For example X-API-Key" error=${err('clientKey')}>${(a) => html`
          <input ...${a} value=${form.header} onInput=${(e) => set('header', e.target.value)} />`}<//>`}
        <${Field} label="Requests per minute" hint="1 to 60000000" error=${err('requestsPerMinute')}>${(a) => html`
          <input ...${a} type="number" value=${form.requestsPerMinute} onInput=${(e) => set('requestsPerMinute', e.target.value)} />`}<//>
        <${Field} label="Burst" hint="Requests a client may make at once; empty: the per-minute figure" error=${err('burst')}>${(a) => html`
          <input ...${a} type="number" value=${form.burst} onInput=${(e) => set('burst', e.target.value)} />`}<//>`}
    </fieldset>
    <${Can} role="operator"><div class="actions"><button type="submit" disabled=${save.busy}>Save rate limit</button></div><//>
    ${save.errorBox}
  </form>`;
}
