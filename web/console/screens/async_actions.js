// The operator's remedies for an async execution, each behind a
// confirmation: reprocess (the stored callback or a given one), complete
// by hand, fail by hand, reopen; and the previews that change nothing.
import { html, useState } from '../lib/html.js';
import { api, get } from '../lib/api.js';
import { prettyJSON } from '../lib/format.js';
import { Can } from '../lib/session.js';
import { Field, Status, ErrorBox, Busy, announce } from '../components/ui.js';
import { Code } from '../components/code.js';
import { useConfirm } from '../components/dialog.js';

const base = (id) => `/async-executions/${encodeURIComponent(id)}`;

// Outcome shows what a callback does or would do.
function Outcome({ p }) {
  if (!p) return null;
  return html`<div class="card">
    <p>Callback ${p.relatesTo || p.messageId ? html`relates to <code>${p.relatesTo || p.messageId}</code>` : 'names no execution'}
      ${p.matches ? html` <${Status} value="ok" />` : html` <${Status} value="failed" /> (another execution)`}</p>
    ${p.outcome
      ? html`<p>Outcome: <${Status} value=${p.outcome.status} /></p>
        ${!p.payloadsWithheld && html`<${Code} title="Outcome" lang="json" text=${prettyJSON(p.outcome.fault ?? p.outcome.error ?? p.outcome.result ?? '')} />`}`
      : html`<p class="muted">No callback to preview.</p>`}
  </div>`;
}

// ReplayPreview shows what reprocessing the stored callback would do now.
export function ReplayPreview({ id }) {
  const [state, setState] = useState({ busy: false, error: null, p: null });
  const load = async () => {
    setState({ busy: true, error: null, p: null });
    try { setState({ busy: false, error: null, p: await get(`${base(id)}/replay-preview`) }); } catch (error) { setState({ busy: false, error, p: null }); }
  };
  return html`<div class="stack">
    <div class="toolbar"><button type="button" class="secondary" disabled=${state.busy} onClick=${load}>Preview a replay of the stored callback</button></div>
    ${state.busy && html`<${Busy} label="Converting the stored callback" />`}
    <${ErrorBox} error=${state.error} />
    <${Outcome} p=${state.p} />
  </div>`;
}

export function AsyncActions({ detail, onChange }) {
  const e = detail.execution;
  const [ask, dialog] = useConfirm();
  const [xml, setXML] = useState('');
  const [result, setResult] = useState('');
  const [reason, setReason] = useState('');
  const [preview, setPreview] = useState({ error: null, p: null });
  const act = (title, body, confirmLabel, path, payload, opts, danger) => ask({
    title, confirmLabel, danger, body,
    action: async () => {
      await api('POST', base(e.correlationId) + path, payload, opts);
      announce(`${confirmLabel}: done`);
      onChange();
    },
  });
  const previewXML = async () => {
    setPreview({ error: null, p: null });
    try { setPreview({ error: null, p: await api('POST', `${base(e.correlationId)}/callback-preview`, xml, { type: 'application/xml' }) }); } catch (error) { setPreview({ error, p: null }); }
  };
  const [resultError, setResultError] = useState(null);
  const complete = (ev) => {
    ev.preventDefault();
    let v;
    try { v = JSON.parse(result); } catch (err) { setResultError({ code: 'JSON', message: `the result is not valid JSON: ${err.message}`, details: {} }); return; }
    setResultError(null);
    act(`Complete ${e.correlationId} by hand?`, html`<p>Pollers receive this result as the final answer.</p>`, 'Complete', '/complete', v);
  };
  const replayable = detail.replayable;
  const reopenable = e.status !== 'waiting_callback';
  return html`<${Can} role="operator"><div class="stack">
    <h3>Actions</h3>
    ${!replayable && html`<p class="muted">Reprocess, complete and fail need a replayable state (waiting_callback, failed or expired); this execution is ${e.status}.</p>`}
    <div class="actions" role="group" aria-label="Execution actions">
      <button type="button" disabled=${!replayable || !e.hasCallback} onClick=${() => act(`Reprocess the stored callback of ${e.correlationId}?`,
        html`<p>The stored callback goes through the operation's current response mapping again and finishes the execution.</p>`, 'Reprocess', '/reprocess')}>Reprocess the stored callback</button>
      <button type="button" class="secondary" disabled=${!reopenable} onClick=${() => act(`Reopen ${e.correlationId}?`,
        html`<p>The execution waits for a callback again with a fresh expiry; its outcome is cleared, the stored callback stays.</p>`, 'Reopen', '/reopen')}>Reopen</button>
    </div>
    <form class="stack" onSubmit=${(ev) => { ev.preventDefault(); previewXML(); }}>
      <${Field} label="A callback (raw SOAP XML)" hint="Preview what it would do, or reprocess the execution with it (it replaces the stored one)." wide>${(a) => html`
        <textarea ...${a} class="mono" rows="6" spellcheck="false" value=${xml} onInput=${(ev) => setXML(ev.target.value)}></textarea>`}<//>
      <div class="actions">
        <button type="submit" class="secondary" disabled=${!xml.trim()}>Preview this callback</button>
        <button type="button" disabled=${!xml.trim() || !replayable} onClick=${() => act(`Reprocess ${e.correlationId} with this callback?`,
          html`<p>The given callback is stored in place of the current one and finishes the execution.</p>`, 'Reprocess', '/reprocess', xml, { type: 'application/xml' })}>Reprocess with this callback</button>
      </div>
      <${ErrorBox} error=${preview.error} />
      <${Outcome} p=${preview.p} />
    </form>
    <div class="two-col">
      <form class="stack" onSubmit=${complete}>
        <${Field} label="Final result (JSON)" hint="The JSON the poller receives." wide>${(a) => html`
          <textarea ...${a} class="mono" rows="4" spellcheck="false" value=${result} onInput=${(ev) => setResult(ev.target.value)}></textarea>`}<//>
        <div class="actions"><button type="submit" disabled=${!replayable || !result.trim()}>Complete</button></div>
        <${ErrorBox} error=${resultError} />
      </form>
      <form class="stack" onSubmit=${(ev) => { ev.preventDefault(); act(`Fail ${e.correlationId} by hand?`, html`<p>Pollers receive S2R-RUN-0502 with this reason.</p>`, 'Fail', '/fail', reason, { type: 'text/plain' }, true); }}>
        <${Field} label="Failure reason" hint="1 to 4096 characters." wide>${(a) => html`
          <input ...${a} maxlength="4096" value=${reason} onInput=${(ev) => setReason(ev.target.value)} />`}<//>
        <div class="actions"><button type="submit" class="danger" disabled=${!replayable || !reason.trim()}>Fail</button></div>
      </form>
    </div>
    ${dialog}
  </div><//>`;
}
