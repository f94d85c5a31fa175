// Trying a consume service's REST backend through a backend profile
// (POST /backend-profiles/{id}:test-rest): a method, a path under the
// profile's endpoint URL and an optional JSON body, sent with the
// profile's authentication; the answer as the backend gave it.
import { html, useState } from '../lib/html.js';
import { api } from '../lib/api.js';
import { fmtMs, prettyJSON } from '../lib/format.js';
import { Can } from '../lib/session.js';
import { Field, Status, ErrorBox, Busy } from '../components/ui.js';
import { Code, SideBySide } from '../components/code.js';

const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

// TryREST opens pre-filled with the backend call of the first operation
// (its REST method and path); choosing another operation fills its call.
export function TryREST({ profileId, operations = [] }) {
  const callOf = (op) => ({ method: op ? op.restMethod || 'POST' : 'GET', path: op ? op.restPath || '' : '', body: '' });
  const [opId, setOpId] = useState(operations[0] ? operations[0].operationId : '');
  const [form, setForm] = useState(callOf(operations[0]));
  const pick = (id) => { setOpId(id); setForm(callOf(operations.find((o) => o.operationId === id))); };
  const params = (form.path.match(/\{[^}]+\}/g) || []);
  const [state, setState] = useState({ busy: false, error: null, preview: null });
  const set = (k) => (e) => setForm({ ...form, [k]: e.target.value });
  const submit = async (e) => {
    e.preventDefault();
    let body = null;
    if (form.body.trim()) {
      try { body = JSON.parse(form.body); } catch (err) {
        setState({ busy: false, preview: null, error: { code: 'JSON', message: `the body is not valid JSON: ${err.message}`, details: {} } });
        return;
      }
    }
    setState({ busy: true, error: null, preview: null });
    try {
      const preview = await api('POST', `/backend-profiles/${profileId}:test-rest`, { method: form.method, path: form.path.trim(), body });
      setState({ busy: false, error: null, preview });
    } catch (error) {
      setState({ busy: false, error, preview: null });
    }
  };
  const p = state.preview;
  const req = (p && p.request) || {};
  const res = (p && p.response) || {};
  return html`<${Can} role="operator" fallback=${html`<p class="muted">Backend tests call the backend for real: they need the operator role.</p>`}>
    <form class="stack try" onSubmit=${submit}>
      <p class="muted">Call the service's REST backend as the runtime would, with this profile's authentication, timeout and retries.</p>
      <div class="inline-form">
        ${operations.length > 0 && html`<${Field} label="Operation">${(a) => html`<select ...${a} value=${opId} onChange=${(e) => pick(e.target.value)}>
          ${operations.map((o) => html`<option value=${o.operationId}>${o.soapOperationName}</option>`)}</select>`}<//>`}
        <${Field} label="Method">${(a) => html`<select ...${a} value=${form.method} onChange=${set('method')}>
          ${methods.map((m) => html`<option value=${m}>${m}</option>`)}</select>`}<//>
        <${Field} label="Path" hint="Under the profile's endpoint URL, with an optional query; empty: the URL itself.">${(a) => html`
          <input ...${a} class="mono" placeholder="/orders/42?expand=items" value=${form.path} onInput=${set('path')} />`}<//>
      </div>
      <${Field} label="JSON body" hint="Optional." wide>${(a) => html`
        <textarea ...${a} class="mono" rows="6" spellcheck="false" value=${form.body} onInput=${set('body')}></textarea>`}<//>
      ${params.length > 0 && html`<p class="notice">Replace ${params.map((p, i) => html`${i > 0 ? ', ' : ''}<code>${p}</code>`)} in the path with a value before you send.</p>`}
      <div class="actions"><button type="submit" disabled=${state.busy}>Send to the backend</button></div>
      ${state.busy && html`<${Busy} label="Calling the backend" />`}
      <${ErrorBox} title="Test failed" error=${state.error} />
      ${p && html`<div class="preview" aria-label="Request and response">
        <p class="preview-head"><${Status} value=${p.status} /> HTTP ${p.httpStatus || res.httpStatus || '—'} · ${fmtMs(p.latencyMs)}
          ${res.attempts > 1 ? ` · ${res.attempts} attempts` : ''} · <code>${req.method} ${req.url}</code></p>
        ${res.error && html`<${ErrorBox} title="The runtime would answer" error=${{ ...res.error, details: {} }} />`}
        <${SideBySide}>
          <${Code} title="Request body" lang="json" text=${req.payload == null ? '' : prettyJSON(req.payload)} />
          <${Code} title="Response" lang=${res.json !== undefined ? 'json' : ''} text=${res.json !== undefined ? prettyJSON(res.json) : res.body} />
        <//>
      </div>`}
    </form>
  <//>`;
}
