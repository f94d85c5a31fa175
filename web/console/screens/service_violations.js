// Contract violations of an operation (DESIGN 10.6): the responses of the
// last 24 hours answered under responseValidation "detect" although they
// broke the contract (GET /runtime-logs?violations=true), with the newest
// as an example.
import { html } from '../lib/html.js';
import { get } from '../lib/api.js';
import { Link, BASE } from '../lib/router.js';
import { fmtNum, issueCount, issueText } from '../lib/format.js';
import { When, useAsync, Loaded } from '../components/ui.js';
import { Section } from '../components/page.js';

export function ContractViolations({ service, op }) {
  const filter = { environment: service.environment, serviceKey: service.serviceKey, operationKey: op.operationKey };
  const list = useAsync(() => get('/runtime-logs', { ...filter, violations: 'true', pageSize: 1 }), [op.operationId]);
  const mode = op.responseValidation || 'strict';
  return html`<${Section} id="op-violations" title="Contract violations (last 24 hours)">
    <p class="muted small">Response validation is <strong>${mode}</strong>:
      ${mode === 'strict' ? ' a response that breaks the contract is refused with 502.' : mode === 'detect'
        ? ' such a response is answered and each violation recorded here.' : ' responses are not checked.'}</p>
    <${Loaded} state=${list}>${(d) => (d.totalItems === 0 ? html`<p class="empty">No recorded violation.</p>` : html`<div class="stack">
      <p><strong>${fmtNum(d.totalItems)}</strong> ${d.totalItems === 1 ? 'response' : 'responses'} broke the contract. Newest, <${When} iso=${d.items[0].occurredAt} /> (<${Link}
        href=${`${BASE}/traffic?correlationId=${encodeURIComponent(d.items[0].correlationId)}`}>${d.items[0].correlationId}<//>), ${violations(d.items[0].validationIssues)}:</p>
      <ul aria-label="Violations of the newest response">${(d.items[0].validationIssues || []).map((v) => (v.omitted
        ? html`<li class="muted">${issueText(v)}</li>` : html`<li><code>${v.pointer}</code>: ${v.reason}</li>`))}</ul>
    </div>`)}<//>
  <//>`;
}

// violations is "N violation(s)" for a record's issues, the marker's
// count included.
function violations(issues) {
  const n = issueCount(issues);
  return `${fmtNum(n)} ${n === 1 ? 'violation' : 'violations'}`;
}

// ViolationsNotice tells the readiness and drift views of a service that
// its backends answered responses that broke the contract in the last 24
// hours (recorded under responseValidation "detect"), with the operations
// concerned and a link to each one's violations: the contract the backend
// really speaks may have moved before any new WSDL says so.
export function ViolationsNotice({ service }) {
  const filter = { environment: service.environment, serviceKey: service.serviceKey, violations: 'true', pageSize: 50 };
  const list = useAsync(() => get('/runtime-logs', filter), [service.serviceId]);
  return html`<${Loaded} state=${list}>${(d) => {
    if (!d.totalItems) return null;
    const ops = [...new Map(d.items.filter((l) => l.operationId).map((l) => [l.operationId, l.operationKey])).entries()];
    return html`<div class="notice warn" role="status">
      <strong>${fmtNum(d.totalItems)}</strong> ${d.totalItems === 1 ? 'response' : 'responses'} from the backend broke the contract in the last 24 hours
      (answered under response validation "detect"):
      ${ops.map(([id, k], i) => html`${i > 0 ? ', ' : ' '}<${Link} href=${`${BASE}/services/${service.serviceId}?tab=operations&op=${encodeURIComponent(id)}`}><code>${k}</code><//>`)}.
      The backend may already speak a newer contract than this version's WSDL.</div>`;
  }}<//>`;
}
