// "Call it": how a client calls a service, ready to copy. A consume
// service shows its WSDL URL and, per operation, a sample SOAP request and
// the curl command that sends it; a publish service, the curl command of
// each operation with a sample JSON body. Samples come from the contract
// (GET /operations/{id}/sample-request); nothing is called.
import { html, useState } from '../lib/html.js';
import { get } from '../lib/api.js';
import { useAsync, Loaded, Field, KeyValues } from '../components/ui.js';
import { Code } from '../components/code.js';
import { Section } from '../components/page.js';
import { pickVersion } from './service_common.js';

// shellQuote quotes s for a POSIX shell.
const shellQuote = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;

export function CallIt({ service }) {
  const data = useAsync(async () => {
    const vs = await get(`/services/${service.serviceId}/versions`);
    const v = vs.items.find((x) => x.status === 'active') || pickVersion(vs.items);
    const ops = v ? await get(`/services/${service.serviceId}/versions/${v.versionId}/operations`) : { items: [] };
    return { version: v, ops: ops.items };
  }, [service.serviceId, service.activeVersionId]);
  const base = `${location.origin}/${service.direction}/${service.environment}/${service.serviceKey}`;
  return html`<${Section} id="call-it" title="Call it">
    <${Loaded} state=${data}>${(d) => {
      if (!d.version || d.ops.length === 0) return html`<p class="empty">No operations yet: import a WSDL for this service.</p>`;
      const live = d.version.status === 'active';
      return html`<div class="stack">
        ${!live && html`<p class="notice">Version ${d.version.versionNumber} is a ${d.version.status}: these calls answer once it is activated (Versions tab).</p>`}
        ${service.direction === 'consume' && html`<${KeyValues} items=${[
          ['WSDL URL', html`<a href=${`${base}?wsdl`} target="_blank" rel="noopener"><code>${base}?wsdl</code></a>`],
          ['SOAP endpoint', html`<code>POST ${base}</code>`],
        ]} />`}
        <${OperationSample} key=${d.version.versionId} service=${service} base=${base} ops=${d.ops} />
      </div>`;
    }}<//>
  <//>`;
}

// OperationSample shows the sample request of the chosen operation.
function OperationSample({ service, base, ops }) {
  const [opId, setOpId] = useState(ops[0].operationId);
  const op = ops.find((o) => o.operationId === opId) || ops[0];
  const sample = useAsync(() => get(`/operations/${op.operationId}/sample-request`), [op.operationId]);
  return html`<div class="stack">
    <${Field} label="Operation">${(a) => html`<select ...${a} value=${op.operationId} onChange=${(e) => setOpId(e.target.value)}>
      ${ops.map((o) => html`<option value=${o.operationId}>${service.direction === 'consume' ? o.soapOperationName : `${o.operationKey} (${o.restMethod} ${o.restPath})`}</option>`)}</select>`}<//>
    <${Loaded} state=${sample}>${(s) => (service.direction === 'consume' ? html`
      <${Code} title=${`Sample SOAP request · ${op.soapOperationName}`} lang="xml" text=${s.envelope} />
      <${Code} title="curl" text=${curlSOAP(base, s)} />
      <p class="muted small">Strings are "string" and numbers fit the contract's facets: put real values in before you send it.</p>`
    : html`<${Code} title=${`curl · ${op.operationKey}`} text=${curlJSON(base, op, s)} />`)}<//>
  </div>`;
}

function curlSOAP(base, s) {
  const action = s.soapVersion === '1.2' ? '' : ` \\\n  -H ${shellQuote(`SOAPAction: "${s.soapAction}"`)}`;
  return `curl -s ${shellQuote(base)} \\\n  -H ${shellQuote(`Content-Type: ${s.contentType}`)}${action} \\\n  -d ${shellQuote(s.envelope)}`;
}

function curlJSON(base, op, s) {
  const method = op.restMethod || 'POST';
  const body = method === 'GET' || method === 'DELETE' ? '' : ` \\\n  -H 'Content-Type: application/json' -d ${shellQuote(JSON.stringify(s.payload))}`;
  return `curl -s -X ${method} ${shellQuote(base + (op.restPath || `/${op.operationKey}`))}${body}`;
}
