// The result of an autopilot import: what was drafted, how ready it is,
// a try-out against the backend, and activation.
import { html, useState } from '../lib/html.js';
import { api, get } from '../lib/api.js';
import { Link, BASE } from '../lib/router.js';
import { Section } from '../components/page.js';
import { DataTable } from '../components/table.js';
import { Status, KeyValues, ErrorBox, Field, announce } from '../components/ui.js';
import { Readiness, DiagnosticsSummary } from '../components/readiness.js';
import { TryOperation } from './try.js';
import { TryREST } from './try_rest.js';
import { ProposeRoutes } from './consume_routes.js';
import { runtimePath } from './service_common.js';

export function AutopilotResult({ result, onAgain }) {
  const { service, version, backendProfile, mappingDiagnostics, publishReadiness, artifact } = result;
  const [operations, setOperations] = useState(result.operations);
  const reloadOps = async () => setOperations((await get(`/services/${service.serviceId}/versions/${version.versionId}/operations`)).items);
  const [readiness, setReadiness] = useState(publishReadiness);
  const [active, setActive] = useState(null);
  const diag = (mappingDiagnostics && mappingDiagnostics.operations) || {};
  const columns = [
    { key: 'operationKey', label: 'Operation', render: (o) => html`<code>${o.operationKey}</code><div class="muted small">${o.soapOperationName}</div>` },
    { key: 'rest', label: service.direction === 'consume' ? 'REST backend call' : 'REST route', render: (o) => html`<code>${o.restMethod} ${o.restPath}</code>` },
    { key: 'mode', label: 'Execution', render: (o) => o.executionMode },
    { key: 'mapping', label: 'Mapping', render: (o) => html`<${Status} value=${diag[o.operationKey]?.status} />` },
  ];
  return html`<div class="stack">
    <${Section} id="drafted" title="Drafted" actions=${html`<button type="button" class="secondary" onClick=${onAgain}>Import another</button>`}>
      <${KeyValues} items=${[
        ['Service', html`<${Link} href=${`${BASE}/services/${service.serviceId}`}>${service.serviceKey}<//> (${service.serviceName})`],
        ['Environment', service.environment],
        ['Direction', service.direction],
        ['Version', html`${version.versionNumber} <${Status} value=${version.status} />`],
        ['WSDL', `${artifact.rootPath} · ${artifact.fileCount} file(s) · ${artifact.operationCount} operation(s)`],
        artifact.warnings && artifact.warnings.length > 0 && ['Warnings', html`<ul>${artifact.warnings.map((w) => html`<li>${w}</li>`)}</ul>`],
      ]} />
    <//>
    <${Section} id="operations" title="Operations and mapping diagnostics">
      <${DiagnosticsSummary} summary=${mappingDiagnostics && mappingDiagnostics.summary} />
      <${DataTable} caption="Operations" columns=${columns} rows=${operations} rowKey=${(o) => o.operationId} />
    <//>
    <${Section} id="readiness" title=${service.direction === 'consume' ? 'Readiness' : 'Publish readiness'}><${Readiness} report=${readiness} /><//>
    ${backendProfile && html`<${Section} id="backend" title="Backend">
      <${BackendURL} profile=${backendProfile} />
    <//>`}
    ${backendProfile && service.direction !== 'consume' && html`<${Section} id="try" title="Try an operation against the backend">
      <${TryOperation} profileId=${backendProfile.profileId} versionId=${version.versionId} operations=${operations} />
    <//>`}
    ${backendProfile && service.direction === 'consume' && html`<${Section} id="routes" title="REST backend calls from the backend's OpenAPI">
      <${ProposeRoutes} profileId=${backendProfile.profileId} ops=${operations} editable=${true} onApplied=${reloadOps} />
    <//>`}
    ${backendProfile && service.direction === 'consume' && html`<${Section} id="try" title="Try the REST backend">
      <${TryREST} key=${operations.map((o) => o.restMethod + o.restPath).join()} profileId=${backendProfile.profileId} operations=${operations} />
    <//>`}
    <${Section} id="activate" title="Activate">
      ${active
        ? html`<${Activated} service=${service} operations=${operations} />`
        : html`<${Activate} service=${service} version=${version} readiness=${readiness} onActive=${setActive} onReadiness=${setReadiness} />`}
    <//>
  </div>`;
}

// BackendURL edits the endpoint of the drafted backend profile: the WSDL's
// address is often not the one s2r must call.
function BackendURL({ profile }) {
  const [url, setURL] = useState(profile.endpointUrl);
  const [saved, setSaved] = useState(profile.endpointUrl);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const save = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const p = await api('PATCH', `/backend-profiles/${profile.profileId}`, { endpointUrl: url.trim() });
      setSaved(p.endpointUrl);
      announce('Backend URL saved');
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return html`<form class="inline-form" onSubmit=${save}>
    <${Field} label="Backend endpoint URL" hint=${`Profile ${profile.name}; auth ${profile.authType}. More settings on the service page.`} wide>${(a) => html`
      <input ...${a} type="url" name="endpointUrl" required value=${url} onInput=${(e) => setURL(e.target.value)} />`}<//>
    <button type="submit" class="secondary" disabled=${busy || url.trim() === saved}>Save URL</button>
    <${ErrorBox} error=${error} />
  </form>`;
}

function Activate({ service, version, readiness, onActive, onReadiness }) {
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const activate = async () => {
    setBusy(true);
    setError(null);
    try {
      const res = await api('POST', `/services/${service.serviceId}/versions/${version.versionId}:activate`);
      if (res && res.publishReadiness) onReadiness(res.publishReadiness);
      onActive(res);
      announce(`Version ${version.versionNumber} of ${service.serviceKey} is active`);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const blocked = readiness && readiness.status === 'BLOCKED';
  return html`<p>Activating makes draft version ${version.versionNumber} the version the runtime serves${blocked ? ' — it is BLOCKED: fix the blocking issues first' : ''}.</p>
    <div class="actions"><button type="button" onClick=${activate} disabled=${busy || blocked}>${busy ? 'Activating…' : `Activate version ${version.versionNumber}`}</button></div>
    <${ErrorBox} title="Activation failed" error=${error} />`;
}

function Activated({ service, operations }) {
  const base = `${location.origin}/${service.direction}/${service.environment}/${service.serviceKey}`;
  return html`<div role="status"><p><${Status} value="active" /> The service is live. Call it:</p>
    ${service.direction === 'consume' && html`<p>SOAP clients read its WSDL at <a href=${`${base}?wsdl`} target="_blank" rel="noopener"><code>${base}?wsdl</code></a>;
      the service page shows a sample SOAP request ready to copy.</p>`}
    <ul class="endpoints">${operations.map((o) => html`<li><code>${runtimePath(service, o)}</code></li>`)}</ul>
    <p>Next: <${Link} href=${`${BASE}/services/${service.serviceId}`}>open the service<//> for its OpenAPI document, backends and rules.</p></div>`;
}
