// The traffic detail drawer: one record of any source, with its headers
// and payloads as the API returns them (credentials were masked before
// storage; payloads and headers are withheld from readers by the API).
// The drawer is in the URL (?open=lb:<globalTransactionId>,
// ?open=generic:<id>, ?open=runtime:<correlationId>), so a link or a
// reload opens it again.
import { html } from '../lib/html.js';
import { get } from '../lib/api.js';
import { Link, setQuery, BASE } from '../lib/router.js';
import { fmtMs, fmtBytes, fmtNum } from '../lib/format.js';
import { Drawer } from '../components/drawer.js';
import { KeyValues, When, useAsync, Loaded, Status, Badge } from '../components/ui.js';
import { Code, SideBySide, Headers, guessLang } from '../components/code.js';
import { TraceRecords, withheldNote } from './traffic_trace.js';

const sourceNames = { runtime: 'Runtime transaction', lb: 'Load-balancer transaction', generic: 'Gateway log' };

// openKey is the ?open= value of a record.
export const openKey = (source, id) => `${source}:${id}`;

// parseOpen splits an ?open= value at its first colon (correlation ids may
// hold more).
function parseOpen(v) {
  const i = v.indexOf(':');
  return i < 0 ? { source: '', id: v } : { source: v.slice(0, i), id: v.slice(i + 1) };
}

// DetailsButton opens the drawer for a record; the drawer gives the focus
// back to it when it closes.
export function DetailsButton({ source, id, label }) {
  const key = openKey(source, id);
  return html`<button type="button" class="link" data-open=${key} aria-label=${label}
    onClick=${() => setQuery({ open: key })}>Details</button>`;
}

export function TrafficDrawer({ open }) {
  const { source, id } = parseOpen(open);
  const fallback = () => document.querySelector(`[data-open="${CSS.escape(open)}"]`) || document.querySelector('main h1');
  return html`<${Drawer} title=${sourceNames[source] || 'Traffic record'} subtitle=${html`<code>${id}</code>`}
    onClose=${() => setQuery({ open: '' })} fallbackFocus=${fallback}>
    ${source === 'runtime' ? html`<${RuntimeDetail} id=${id} />`
      : html`<${EdgeDetail} source=${source} id=${id} />`}
  <//>`;
}

function RuntimeDetail({ id }) {
  const trace = useAsync(() => get(`/debug-traces/${encodeURIComponent(id)}`), [id]);
  return html`<${Loaded} state=${trace} label="Loading the transaction">${(t) => html`<div class="stack">
    <p><${Link} href=${`${BASE}/traffic?tab=trace&correlationId=${encodeURIComponent(id)}`}>Open as a debug trace<//> (with the replay metadata)</p>
    <${TraceRecords} trace=${t} />
  </div>`}<//>`;
}

// EdgeDetail loads GET /traffic-logs/{id}?source= (lb or generic; the API
// refuses anything else with its code).
function EdgeDetail({ source, id }) {
  const d = useAsync(() => get(`/traffic-logs/${encodeURIComponent(id)}`, { source }), [source, id]);
  return html`<${Loaded} state=${d} label="Loading the transaction">${(t) => html`<div class="stack">
    <${EdgeSummary} t=${t} />
    ${t.payloadsWithheld && html`<p class="notice">${withheldNote}</p>`}
    ${t.source === 'generic' ? html`<${GenericPayloads} t=${t} />` : (t.events || []).map((e) => html`<${StageEvent} key=${e.eventId} e=${e} withheld=${t.payloadsWithheld} />`)}
  </div>`}<//>`;
}

function EdgeSummary({ t }) {
  const service = t.environment === 'discovered'
    ? html`<span class="muted">not onboarded (shadow service)</span>`
    : html`<code>${[t.direction, t.environment, t.serviceKey].filter(Boolean).join('/')}</code>${t.serviceId && html` · <${Link} href=${`${BASE}/services/${t.serviceId}`}>service page<//>`}`;
  return html`<div class="card"><${KeyValues} items=${[
    ['When', html`<${When} iso=${t.occurredAt} />`],
    t.startedAt && t.startedAt !== t.occurredAt && ['Started', html`<${When} iso=${t.startedAt} />`],
    t.receivedAt && ['Received', html`<${When} iso=${t.receivedAt} />`],
    ['Source', html`<${Badge} kind="info">${t.source}<//> ${t.gatewayVendor}`],
    ['Connector instance', t.instanceId && html`<code>${t.instanceId}</code>`],
    t.eventId && ['Event id', html`<code>${t.eventId}</code>`],
    ['Service URI', html`<code>${t.serviceUri}</code>`],
    ['Service', service],
    ['Request', html`<code>${t.method} ${t.uri}</code>`],
    ['Answer', html`HTTP ${t.statusCode} · <${Status} value=${t.resultCode} />${t.soapFault ? html` <${Badge} kind="warn">fault<//>` : ''}${t.error ? html` <${Badge} kind="bad">error<//>` : ''}`],
    ['Latency', fmtMs(t.latencyMs)],
    ['Consumer', t.consumerIp],
    ['Backend', t.backend],
    (t.frontVirtualServer || t.backVirtualServer) && ['Virtual servers', `${t.frontVirtualServer || '—'} → ${t.backVirtualServer || '—'}`],
    ['Sizes', `${fmtBytes(t.bytesIn)} in, ${fmtBytes(t.bytesOut)} out`],
    t.stages && ['Stages', t.stages.join(', ')],
  ]} /></div>`;
}

// PayloadPane shows one stored payload with its size as sent and whether
// it was cut at 64 KB.
function PayloadPane({ title, p, withheld }) {
  if (!p) return null;
  const note = `${fmtNum(p.payloadBytes)} bytes as sent${p.truncated ? ', cut at 64 KB' : ''}`;
  if (withheld) return html`<p class="muted small">${title}: ${note}, withheld.</p>`;
  return html`<div><${Code} title=${`${title} (${note})`} lang=${guessLang(p.payload)} text=${p.payload} />
    ${p.truncated && html`<${Badge} kind="warn">truncated<//>`}</div>`;
}

function GenericPayloads({ t }) {
  return html`<${SideBySide}>
    <${PayloadPane} title="Request payload" p=${t.request} withheld=${t.payloadsWithheld} />
    <${PayloadPane} title="Response payload" p=${t.response} withheld=${t.payloadsWithheld} />
  <//>`;
}

// StageEvent is one of an lb transaction's up to four stage events.
function StageEvent({ e, withheld }) {
  return html`<section class="card" aria-label=${`Stage ${e.stage}`}>
    <h3>${e.stage.replace('_', ' ')}</h3>
    <${KeyValues} items=${[
      ['When', html`<${When} iso=${e.occurredAt} />`],
      e.method && ['Request', html`<code>${e.method} ${e.host || ''}${e.uri}</code>`],
      (e.statusCode || e.resultCode) && ['Answer', html`HTTP ${e.statusCode} · <${Status} value=${e.resultCode} />${e.soapFault ? html` <${Badge} kind="warn">fault<//>` : ''}`],
      e.durationMs > 0 && ['Duration', fmtMs(e.durationMs)],
      e.clientIp && ['Client', e.clientIp],
      e.backend && ['Backend', e.backend],
    ]} />
    <${Headers} title=${`Headers, ${e.stage.replace('_', ' ')} (credentials masked)`} headers=${e.headers} />
    ${e.payloadBytes > 0 && html`<${PayloadPane} title="Payload" p=${e} withheld=${withheld} />`}
  </section>`;
}
