// The WS-Security, WS-Addressing and protection sections of the backend
// profile form (DESIGN 10.1, 10.2). The WS-Security password and signing
// key are write-only credentials: the form says whether each is set and
// takes a new value; the stored one is never shown.
import { html } from '../lib/html.js';
import { Field } from '../components/ui.js';

// fieldError is the API error's message when its details.field names
// field (or a field inside it), so a form can show it next to that field.
export function fieldError(error, field) {
  const f = error && error.details && error.details.field;
  if (!f) return '';
  return f === field || f.startsWith(`${field}.`) || f.startsWith(`${field}[`) ? (error.details.reason || error.message) : '';
}

const parts = ['Body', 'Timestamp', 'UsernameToken'];
// signable reports whether the form's state sends part p, so that it can
// be signed: a Timestamp or UsernameToken that is not sent cannot be (the
// API refuses it), so the form neither offers nor sends it.
const signable = (f, p) => p === 'Body' || (p === 'Timestamp' && f.wssTs) || (p === 'UsernameToken' && f.wssUser);

// wssForm turns a profile's wsSecurity into the form's flat state.
export function wssForm(w) {
  const s = (w && w.signature) || null;
  return {
    wssOn: !!w, wssUser: !!(w && w.usernameToken), wssUsername: w?.usernameToken?.username || '', wssPasswordType: w?.usernameToken?.passwordType || 'PasswordText',
    wssTs: !!(w && w.timestamp), wssTtl: w?.timestamp?.ttlSeconds ?? 300, wssSign: !!s, wssCert: s?.certificatePem || '',
    wssKeyId: s?.keyIdentifier || 'BinarySecurityToken', wssSigAlg: s?.signatureAlgorithm || 'rsa-sha256', wssDigAlg: s?.digestAlgorithm || 'sha256',
    wssParts: s?.signParts?.length ? s.signParts : ['Body', 'Timestamp'], wssMustUnderstand: w ? !!w.mustUnderstand : true,
  };
}

// wssBody is the wsSecurity value a form's state sends (null: none).
export function wssBody(f) {
  if (!f.wssOn) return null;
  return {
    usernameToken: f.wssUser ? { username: f.wssUsername, passwordType: f.wssPasswordType } : null,
    timestamp: f.wssTs ? { ttlSeconds: Number(f.wssTtl) } : null,
    signature: f.wssSign ? { certificatePem: f.wssCert, keyIdentifier: f.wssKeyId, signatureAlgorithm: f.wssSigAlg, digestAlgorithm: f.wssDigAlg, signParts: f.wssParts.filter((p) => signable(f, p)) } : null,
    mustUnderstand: !!f.wssMustUnderstand,
  };
}

// wssCredentials lists the write-only credentials the WS-Security state uses.
export function wssCredentials(f) {
  return f.wssOn ? [...(f.wssUser ? ['wssPassword'] : []), ...(f.wssSign ? ['wssSigningKeyPem'] : [])] : [];
}

// readFile fills a PEM field from a chosen file.
const readFile = (e, cb) => { const file = e.target.files && e.target.files[0]; if (file) file.text().then(cb); };

// WSSecuritySection edits the outbound WS-Security header and WS-Addressing.
export function WSSecuritySection({ form, set, error, credential }) {
  const err = (k) => fieldError(error, `wsSecurity.${k}`);
  const check = (k, label) => html`<div class="field check"><label><input type="checkbox" checked=${!!form[k]} onChange=${(e) => set(k, e.target.checked)} /> ${label}</label></div>`;
  const select = (k, label, options, path) => html`<${Field} label=${label} error=${err(path)}>${(a) => html`<select ...${a} value=${form[k]} onChange=${(e) => set(k, e.target.value)}>${options.map((o) => html`<option>${o}</option>`)}</select>`}<//>`;
  const togglePart = (p, on) => set('wssParts', on ? [...form.wssParts.filter((x) => x !== p), p] : form.wssParts.filter((x) => x !== p));
  return html`<fieldset class="grid"><legend>WS-Security</legend>
    ${check('wssOn', 'Add a WS-Security header to every call')}
    ${check('wsAddressing', 'WS-Addressing headers (Action, MessageID, To)')}
    ${form.wssOn && html`
      ${check('wssMustUnderstand', 'mustUnderstand="1" on the header')}
      ${check('wssUser', 'Username token')}
      ${form.wssUser && html`<${Field} label="Username" error=${err('usernameToken.username')}>${(a) => html`<input ...${a} value=${form.wssUsername} onInput=${(e) => set('wssUsername', e.target.value)} />`}<//>
        ${select('wssPasswordType', 'Password type', ['PasswordText', 'PasswordDigest'], 'usernameToken.passwordType')}
        ${credential('wssPassword')}`}
      ${check('wssTs', 'Timestamp')}
      ${form.wssTs && html`<${Field} label="Timestamp lifetime (s)" error=${err('timestamp.ttlSeconds')}>${(a) => html`<input ...${a} type="number" value=${form.wssTtl} onInput=${(e) => set('wssTtl', e.target.value)} />`}<//>`}
      ${check('wssSign', 'Signature (X.509)')}
      ${form.wssSign && html`<${Field} label="Signing certificate (PEM)" hint="Paste it or choose a file; give it to the backend's operators to trust." error=${err('signature.certificatePem')} wide>${(a) => html`
          <textarea ...${a} class="mono" rows="3" value=${form.wssCert} onInput=${(e) => set('wssCert', e.target.value)}></textarea>`}<//>
        <${Field} label="Certificate file">${(a) => html`<input ...${a} type="file" accept=".pem,.crt,.cer" onChange=${(e) => readFile(e, (t) => set('wssCert', t))} />`}<//>
        ${select('wssKeyId', 'Key identifier', ['BinarySecurityToken', 'IssuerSerial', 'SubjectKeyIdentifier'], 'signature.keyIdentifier')}
        ${select('wssSigAlg', 'Signature algorithm', ['rsa-sha256', 'rsa-sha1'], 'signature.signatureAlgorithm')}
        ${select('wssDigAlg', 'Digest algorithm', ['sha256', 'sha1'], 'signature.digestAlgorithm')}
        <fieldset class="field wide" aria-invalid=${err('signature.signParts') ? 'true' : undefined}><legend>Signed parts</legend>
          ${parts.map((p) => html`<label class="check"><input type="checkbox" disabled=${!signable(form, p)} checked=${signable(form, p) && form.wssParts.includes(p)}
            onChange=${(e) => togglePart(p, e.target.checked)} /> ${p}</label>`)}
          <small class="hint">A Timestamp or UsernameToken is signed only when it is sent. None checked: the Body, and the Timestamp when sent.</small>
          ${err('signature.signParts') && html`<small class="field-error">${err('signature.signParts')}</small>`}
        </fieldset>
        ${credential('wssSigningKeyPem')}`}
    `}
  </fieldset>`;
}

const protection = [
  ['maxConcurrentRequests', 'Max concurrent requests', 'Empty: no limit'],
  ['maxRequestsPerSecond', 'Max requests per second', 'Empty: no limit'],
  ['queueTimeoutMs', 'Queue timeout (ms)', 'How long a request waits for a free slot'],
];
// protectionKeys are the profile fields of the Protection section.
export const protectionKeys = protection.map(([k]) => k);

// ProtectionSection edits the limits that protect the backend.
export function ProtectionSection({ form, set, error }) {
  return html`<fieldset class="grid"><legend>Protection</legend>
    ${protection.map(([k, label, hint]) => html`<${Field} label=${label} hint=${hint} error=${fieldError(error, k)}>${(a) => html`
      <input ...${a} type="number" min="0" step="any" value=${form[k] ?? ''} onInput=${(e) => set(k, e.target.value)} />`}<//>`)}
  </fieldset>`;
}
