// Trying operations against the real backend through a backend profile:
// a generated sample (:test-generated-samples) or an edited payload
// (:test-application), with the request and response side by side as
// JSON and as SOAP.
import { html, useState } from '../lib/html.js';
import { api, get } from '../lib/api.js';
import { fmtMs, prettyJSON } from '../lib/format.js';
import { Field, Status, ErrorBox, Busy, Progress } from '../components/ui.js';
import { Code, SideBySide } from '../components/code.js';
import { DataTable } from '../components/table.js';
import { Can } from '../lib/session.js';

// findPreview loads a saved preview by id from the profile's recent ones.
async function findPreview(profileId, previewId) {
  for (let page = 1; page <= 5; page++) {
    const res = await get(`/backend-profiles/${profileId}/test-previews`, { page, pageSize: 50 });
    const p = res.items.find((x) => x.previewId === previewId);
    if (p || page >= res.totalPages) return p || null;
  }
  return null;
}

export function TryOperation({ profileId, versionId, operations }) {
  const [opId, setOpId] = useState(operations[0] ? operations[0].operationId : '');
  const [busy, setBusy] = useState(null);
  const [error, setError] = useState(null);
  const [preview, setPreview] = useState(null);
  const [payload, setPayload] = useState('');
  const [smoke, setSmoke] = useState(null);

  const run = async (label, fn) => {
    setBusy(label);
    setError(null);
    try { await fn(); } catch (err) { setError(err); } finally { setBusy(null); }
  };
  const show = (p) => {
    setPreview(p);
    if (p && p.request && p.request.payload !== undefined) setPayload(prettyJSON(p.request.payload));
  };
  const sample = () => run('Generating a sample and calling the backend', async () => {
    const rep = await api('POST', `/backend-profiles/${profileId}:test-generated-samples`, { operationId: opId });
    const r = rep.results[0];
    if (r && r.previewId) show(await findPreview(profileId, r.previewId));
    else if (r && r.error) setError({ ...r.error, details: {} });
  });
  const send = () => run('Calling the backend', async () => {
    let body;
    try { body = JSON.parse(payload); } catch (e) {
      throw { code: 'JSON', message: `the payload is not valid JSON: ${e.message}`, details: {} };
    }
    show(await api('POST', `/backend-profiles/${profileId}:test-application`, { operationId: opId, payload: body }));
  });
  const smokeAll = () => run(`Smoke-testing ${operations.length} operations with generated samples`, async () => {
    setSmoke(null);
    setSmoke(await api('POST', `/backend-profiles/${profileId}:test-generated-samples`, { versionId }));
  });
  const view = (r) => run('Loading the preview', async () => { setOpId(r.operationId); show(await findPreview(profileId, r.previewId)); });

  return html`<div class="stack try">
    <${Can} role="operator" fallback=${html`<p class="muted">Backend tests call the backend for real: they need the operator role.</p>`}>
      <div class="inline-form">
        <${Field} label="Operation">${(a) => html`<select ...${a} value=${opId} onChange=${(e) => { setOpId(e.target.value); setPreview(null); }}>
          ${operations.map((o) => html`<option value=${o.operationId}>${o.operationKey} (${o.soapOperationName})</option>`)}
        </select>`}<//>
        <button type="button" onClick=${sample} disabled=${!!busy || !opId}>Run with a generated sample</button>
        ${operations.length > 1 && html`<button type="button" class="secondary" onClick=${smokeAll} disabled=${!!busy}>Smoke-test every operation</button>`}
      </div>
      ${busy && (busy.startsWith('Smoke') ? html`<${Progress} label=${busy} />` : html`<${Busy} label=${busy} />`)}
      <${ErrorBox} title="Test failed" error=${error} />
      ${smoke && html`<${SmokeResults} report=${smoke} onView=${view} />`}
      ${preview && html`<${PreviewView} preview=${preview} />`}
      ${preview && html`<form class="stack" onSubmit=${(e) => { e.preventDefault(); send(); }}>
        <${Field} label="Request payload (JSON)" hint="Edit and send again: the payload is converted with the operation's contract." wide>${(a) => html`
          <textarea ...${a} class="mono" rows="8" spellcheck="false" value=${payload} onInput=${(e) => setPayload(e.target.value)}></textarea>`}<//>
        <div class="actions"><button type="submit" class="secondary" disabled=${!!busy}>Send this payload</button></div>
      </form>`}
    <//>
  </div>`;
}

function SmokeResults({ report, onView }) {
  const s = report.summary || {};
  const columns = [
    { key: 'operationKey', label: 'Operation', render: (r) => html`<code>${r.operationKey}</code>` },
    { key: 'status', label: 'Result', render: (r) => html`<${Status} value=${r.status} />` },
    { key: 'httpStatus', label: 'HTTP', render: (r) => r.httpStatus || '—' },
    { key: 'latencyMs', label: 'Latency', render: (r) => fmtMs(r.latencyMs) },
    { key: 'error', label: 'Error', render: (r) => (r.error ? html`<code>${r.error.code}</code> ${r.error.message}` : '') },
    { key: 'view', label: 'Preview', render: (r) => r.previewId && html`<button type="button" class="link" onClick=${() => onView(r)}>View ${r.operationKey}</button>` },
  ];
  return html`<div class="smoke">
    <p>${s.total ?? 0} operations: ${s.succeeded ?? 0} succeeded, ${s.soap_fault ?? 0} SOAP faults, ${s.failed ?? 0} failed.</p>
    <${DataTable} caption="Smoke test results" columns=${columns} rows=${report.results} rowKey=${(r) => r.operationId} />
  </div>`;
}

// PreviewView shows one saved call: the JSON request and the SOAP
// envelope sent, the SOAP answer and the JSON it converts to.
export function PreviewView({ preview }) {
  const req = preview.request || {};
  const res = preview.response || {};
  const jsonOut = res.json !== undefined ? res.json : res.fault !== undefined ? { fault: res.fault } : res.error ? { error: res.error } : undefined;
  return html`<div class="preview" aria-label="Request and response">
    <p class="preview-head"><${Status} value=${preview.status} /> HTTP ${preview.httpStatus || res.httpStatus || '—'} · ${fmtMs(preview.latencyMs)}
      ${res.attempts > 1 ? ` · ${res.attempts} attempts` : ''} · <code>${req.method || 'POST'} ${req.url || ''}</code>
      ${req.soapAction && html` · SOAPAction <code>${req.soapAction}</code>`}</p>
    ${res.error && html`<${ErrorBox} title="The runtime would answer" error=${{ ...res.error, details: {} }} />`}
    <${SideBySide}>
      <${Code} title="Request · JSON" lang="json" text=${prettyJSON(req.payload)} />
      <${Code} title="Request · SOAP" lang="xml" text=${req.envelope} />
      <${Code} title="Response · SOAP" lang="xml" text=${res.body} />
      <${Code} title="Response · JSON" lang="json" text=${jsonOut === undefined ? '' : prettyJSON(jsonOut)} />
    <//>
  </div>`;
}
