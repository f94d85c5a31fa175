// The debug trace of one correlation id (GET /debug-traces/{id}): every
// runtime record with, for debug transactions, the four payloads and the
// recorded headers (masked). Shown by the Debug trace tab and by the
// traffic drawer for runtime records.
import { html, useState } from '../lib/html.js';
import { get } from '../lib/api.js';
import { setQuery } from '../lib/router.js';
import { fmtMs, fmtBytes } from '../lib/format.js';
import { Field, KeyValues, When, useAsync, Loaded, Status, Badge } from '../components/ui.js';
import { Code, SideBySide, Headers, guessLang } from '../components/code.js';
import { ReplayMetadata } from './traffic_replay.js';

export const withheldNote = 'Payloads and headers are business data: they are shown to operators and admins only.';

// DebugTrace is the Debug trace tab: a correlation id field and its trace.
export function DebugTrace({ id }) {
  const [text, setText] = useState(id);
  const trace = useAsync(() => (id ? get(`/debug-traces/${encodeURIComponent(id)}`) : Promise.resolve(null)), [id]);
  return html`<div class="stack">
    <form class="inline-form" role="search" onSubmit=${(e) => { e.preventDefault(); setQuery({ correlationId: text.trim() }); }}>
      <${Field} label="Correlation id" hint="From an error body, the X-Correlation-Id header or the traffic logs." wide>${(a) => html`
        <input ...${a} class="mono" required value=${text} onInput=${(e) => setText(e.target.value)} />`}<//>
      <button type="submit">Show trace</button>
    </form>
    ${id && html`<${Loaded} state=${trace}>${(t) => t && html`<div class="stack">
      <${TraceRecords} trace=${t} />
      <${ReplayMetadata} id=${id} />
    </div>`}<//>`}
  </div>`;
}

// TraceRecords shows the records of a debug trace, oldest first.
export function TraceRecords({ trace }) {
  return html`<div class="stack">
    ${trace.payloadsWithheld && html`<p class="notice">${withheldNote}</p>`}
    ${trace.records.map((r, i) => html`<${TraceRecord} key=${i} entry=${r} withheld=${trace.payloadsWithheld} />`)}
  </div>`;
}

function TraceRecord({ entry, withheld }) {
  const r = entry.record;
  const h = entry.headers || {};
  const p = entry.payloads;
  return html`<div class="card">
    <${KeyValues} items=${[
      ['When', html`<${When} iso=${r.occurredAt} />`],
      ['Route', html`<code>${r.direction}/${r.environment}/${r.serviceKey}</code> ${r.operationKey}`],
      ['Request', html`<code>${r.method} ${r.path}</code>${r.clientIp ? ` from ${r.clientIp}` : ''}`],
      r.consumerIdentity && ['Consumer identity', html`<code>${r.consumerIdentity}</code>`],
      ['Answer', html`HTTP ${r.httpStatus} · <${Status} value=${r.resultCode} /> ${r.errorCode && html`<code>${r.errorCode}</code>`}${r.inBodyFault ? html` <${Badge} kind="warn">fault<//>` : ''}`],
      ['Backend', r.backendTarget],
      ['Timing', `total ${fmtMs(r.totalMs)}, converter ${fmtMs(r.converterMs)}, backend ${fmtMs(r.backendMs)}`],
      ['Sizes', `${fmtBytes(r.requestBytes)} in, ${fmtBytes(r.responseBytes)} out`],
      ['Correlation id', html`<code>${r.correlationId}</code>`],
    ]} />
    ${entry.headers && html`<details open><summary>Headers (credentials masked)</summary><div class="stack">
      <${Headers} title="Client request headers" headers=${h.request} />
      <${Headers} title="Backend request headers" headers=${h.backendRequest} />
      <${Headers} title="Backend response headers" headers=${h.backendResponse} />
      <${Headers} title="Client response headers" headers=${h.response} />
    </div></details>`}
    ${p ? html`<${SideBySide}>
      <${Code} title="Client request" lang=${guessLang(p.request)} text=${p.request} />
      <${Code} title="Backend request" lang=${guessLang(p.backendRequest)} text=${p.backendRequest} />
      <${Code} title="Backend response" lang=${guessLang(p.backendResponse)} text=${p.backendResponse} />
      <${Code} title="Client response" lang=${guessLang(p.response)} text=${p.response} />
    <//>` : !withheld && html`<p class="muted">No payloads: debug was off for this transaction (turn it on for the service, or send X-Debug-Enabled: true).</p>`}
  </div>`;
}
