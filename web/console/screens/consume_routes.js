// Proposing the REST calls of a consume service from its backend's
// OpenAPI document: each SOAP operation is matched to the backend
// operation whose operationId is its name, else to the path whose
// segments hold the words of its name, with the method its verb implies
// (GetQuote → GET /quotes/{symbol}). The document is fetched from the
// backend through the service's backend profile (:test-rest), or pasted.
// Proposals are applied to the draft's operations with PATCH.
import { html, useState } from '../lib/html.js';
import { api } from '../lib/api.js';
import { Field, ErrorBox, Busy, announce } from '../components/ui.js';
import { DataTable } from '../components/table.js';

const verbs = [
  ['GET', ['get', 'find', 'read', 'fetch', 'lookup', 'list', 'search', 'query', 'retrieve', 'load']],
  ['POST', ['create', 'add', 'insert', 'submit', 'post', 'register', 'send', 'place']],
  ['PUT', ['update', 'set', 'modify', 'change', 'put', 'replace', 'save']],
  ['DELETE', ['delete', 'remove', 'cancel', 'drop']],
];

const norm = (s) => String(s || '').toLowerCase().replace(/[^a-z0-9]/g, '');
const words = (s) => String(s || '').replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
const sameWord = (a, b) => a === b || a + 's' === b || b + 's' === a || a + 'es' === b || b + 'es' === a;

// backendOperations lists the operations of an OpenAPI 3 (or Swagger 2)
// document.
export function backendOperations(doc) {
  const out = [];
  for (const [path, item] of Object.entries((doc && doc.paths) || {})) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      if (item && item[method]) out.push({ method: method.toUpperCase(), path, operationId: item[method].operationId || '' });
    }
  }
  return out;
}

// proposeRoute returns the backend operation that best fits a SOAP
// operation, with why, or null.
export function proposeRoute(op, backend) {
  const byId = backend.find((b) => b.operationId && (norm(b.operationId) === norm(op.soapOperationName) || norm(b.operationId) === norm(op.operationKey)));
  if (byId) return { ...byId, why: `operationId ${byId.operationId}` };
  const ws = words(op.soapOperationName);
  const verb = verbs.find(([, vs]) => vs.includes(ws[0]));
  const nouns = verb ? ws.slice(1) : ws;
  let best = null;
  for (const b of backend) {
    const segs = b.path.split('/').filter((s) => s && !s.startsWith('{')).flatMap(words);
    const hits = nouns.filter((n) => segs.some((s) => sameWord(n, s))).length;
    if (hits === 0) continue;
    let score = hits * 10 - segs.length;
    if (verb && verb[0] === b.method) score += 5;
    const params = (b.path.match(/\{/g) || []).length;
    if (verb && verb[1][0] === 'get' && ws[0] !== 'list' && ws[0] !== 'search' && params > 0) score += 2;
    if (!best || score > best.score) best = { ...b, score, why: `path words (${nouns.join(', ')})` };
  }
  return best;
}

export function ProposeRoutes({ profileId, ops, editable, onApplied }) {
  const [path, setPath] = useState('/openapi.json');
  const [pasted, setPasted] = useState('');
  const [state, setState] = useState({ busy: null, error: null, backend: null });
  const run = async (label, fn) => {
    setState((s) => ({ ...s, busy: label, error: null }));
    try { await fn(); setState((s) => ({ ...s, busy: null })); } catch (error) { setState((s) => ({ ...s, busy: null, error })); }
  };
  const propose = (doc) => {
    const backend = backendOperations(doc);
    if (backend.length === 0) throw { code: 'OPENAPI', message: 'the document has no paths with operations: is it an OpenAPI document?', details: {} };
    setState((s) => ({ ...s, backend }));
  };
  const fetchDoc = () => run('Fetching the backend\'s OpenAPI document', async () => {
    if (pasted.trim()) {
      let doc;
      try { doc = JSON.parse(pasted); } catch (e) { throw { code: 'JSON', message: `the pasted document is not JSON: ${e.message}`, details: {} }; }
      propose(doc);
      return;
    }
    const p = await api('POST', `/backend-profiles/${profileId}:test-rest`, { method: 'GET', path: path.trim(), body: null });
    const res = p.response || {};
    if (res.json === undefined || (p.httpStatus && p.httpStatus >= 400)) {
      throw { code: 'OPENAPI', message: `the backend answered HTTP ${p.httpStatus || res.httpStatus || '?'} without an OpenAPI document at ${path}`, details: {} };
    }
    propose(res.json);
  });
  // Rows follow ops, so an applied proposal shows as the current route.
  const rows = state.backend && ops.map((op) => ({ op, proposal: proposeRoute(op, state.backend) }));
  const changed = (rows || []).filter((r) => r.proposal && (r.proposal.method !== r.op.restMethod || r.proposal.path !== r.op.restPath));
  const apply = () => run('Applying the proposed routes', async () => {
    for (const r of changed) {
      await api('PATCH', `/operations/${r.op.operationId}`, { restMethod: r.proposal.method, restPath: r.proposal.path });
    }
    announce(`${changed.length} REST route(s) applied`);
    onApplied && onApplied();
  });
  return html`<div class="stack">
    <p class="muted">s2r proposes the backend call of each operation from the backend's OpenAPI document, when it has one.</p>
    <div class="inline-form">
      <${Field} label="OpenAPI document path" hint="Under the backend profile's endpoint URL; fetched with its authentication.">${(a) => html`
        <input ...${a} class="mono" value=${path} onInput=${(e) => setPath(e.target.value)} />`}<//>
      <button type="button" class="secondary" disabled=${!!state.busy} onClick=${fetchDoc}>Propose REST routes</button>
    </div>
    <details><summary>Or paste the document</summary>
      <${Field} label="OpenAPI document (JSON)" wide>${(a) => html`<textarea ...${a} class="mono" rows="6" spellcheck="false" value=${pasted} onInput=${(e) => setPasted(e.target.value)}></textarea>`}<//>
    </details>
    ${state.busy && html`<${Busy} label=${state.busy} />`}
    <${ErrorBox} title="No proposal" error=${state.error} />
    ${rows && html`<${DataTable} caption="Proposed REST routes" rows=${rows} rowKey=${(r) => r.op.operationId} columns=${[
      { key: 'op', label: 'SOAP operation', render: (r) => html`<code>${r.op.soapOperationName}</code>` },
      { key: 'now', label: 'Now', render: (r) => html`<code>${r.op.restMethod} ${r.op.restPath}</code>` },
      { key: 'proposal', label: 'Proposed', render: (r) => (r.proposal ? html`<code>${r.proposal.method} ${r.proposal.path}</code>` : html`<span class="muted">no match</span>`) },
      { key: 'why', label: 'Matched by', render: (r) => (r.proposal ? r.proposal.why : '') }]} />
      ${editable
        ? html`<div class="actions"><button type="button" disabled=${!!state.busy || changed.length === 0} onClick=${apply}>${changed.length === 0 ? 'Nothing to change' : `Apply ${changed.length} proposal(s)`}</button></div>`
        : html`<p class="muted small">Proposals apply to a draft: create one under Versions.</p>`}`}
  </div>`;
}
