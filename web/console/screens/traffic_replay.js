// Replay metadata of a debug trace (GET /debug-traces/{id}/replay-metadata):
// what it takes to send the recorded requests again.
import { html, useState } from '../lib/html.js';
import { get } from '../lib/api.js';
import { Status, ErrorBox, Badge, When } from '../components/ui.js';
import { Code } from '../components/code.js';

export function ReplayMetadata({ id }) {
  const [state, setState] = useState({ busy: false, error: null, m: null });
  const load = async () => {
    setState({ busy: true, error: null, m: null });
    try { setState({ busy: false, error: null, m: await get(`/debug-traces/${encodeURIComponent(id)}/replay-metadata`) }); } catch (error) { setState({ busy: false, error, m: null }); }
  };
  const m = state.m;
  return html`<div class="stack">
    <div class="toolbar"><button type="button" class="secondary" disabled=${state.busy} onClick=${load}>Replay metadata</button></div>
    <${ErrorBox} error=${state.error} />
    ${m && html`<div class="card stack">
      <p>${m.replayable ? html`<${Status} value="ok" /> every request can be sent again` : html`<${Status} value="failed" /> not replayable as recorded`}
        ${m.payloadsWithheld && html` · payloads are shown to operators and admins only`}</p>
      ${m.requests.map((r) => html`<div key=${r.recordId}>
        <p><code>${r.method} ${r.path}</code> · <${When} iso=${r.occurredAt} /> · originally HTTP ${r.originalStatus} ${r.originalResultCode}
          ${r.redacted ? html` <${Badge} kind="warn">redacted<//>` : ''}${r.payloadTruncated ? html` <${Badge} kind="warn">truncated<//>` : ''}</p>
        ${r.reasons && r.reasons.length > 0 && html`<ul class="issues">${r.reasons.map((x) => html`<li>${x}</li>`)}</ul>`}
        ${r.headers && html`<details><summary>Headers</summary><pre class="mono small">${JSON.stringify(r.headers, null, 2)}</pre></details>`}
        ${r.payload != null && html`<${Code} title=${`Payload${r.contentType ? ` (${r.contentType})` : ''}`} lang=${r.payload.trim().startsWith('<') ? 'xml' : 'json'} text=${r.payload} />`}
      </div>`)}
    </div>`}
  </div>`;
}
