// Operations of a version: REST route, timeout, retries, execution mode and
// response validation, and per operation its mapping, transform rules,
// validation rules and recorded contract violations.
import { html, useState } from '../lib/html.js';
import { get } from '../lib/api.js';
import { setQuery } from '../lib/router.js';
import { useSession, can } from '../lib/session.js';
import { DataTable } from '../components/table.js';
import { Field, Status, useAsync, Loaded, Badge } from '../components/ui.js';
import { Section } from '../components/page.js';
import { useSave, send, pickVersion } from './service_common.js';
import { MappingEditor, TransformRules, ValidationRules } from './service_rules.js';
import { ProposeRoutes } from './consume_routes.js';
import { ContractViolations } from './service_violations.js';

export function Operations({ service, query }) {
  const versions = useAsync(() => get(`/services/${service.serviceId}/versions`), [service.serviceId]);
  return html`<${Loaded} state=${versions}>${(vs) => {
    const version = pickVersion(vs.items, query.get('version'));
    if (!version) return html`<p class="empty">This service has no versions.</p>`;
    return html`<div class="stack">
      <div class="toolbar"><${Field} label="Version">${(a) => html`<select ...${a} value=${version.versionId} onChange=${(e) => setQuery({ version: e.target.value, op: '' })}>
        ${vs.items.map((v) => html`<option value=${v.versionId}>Version ${v.versionNumber} (${v.status})</option>`)}</select>`}<//>
        ${version.status !== 'draft' && html`<p class="muted">Version ${version.versionNumber} is ${version.status}: it cannot change. Create a draft under Versions to edit.</p>`}
      </div>
      <${OperationList} key=${version.versionId} service=${service} version=${version} opId=${query.get('op')} />
    </div>`;
  }}<//>`;
}

function OperationList({ service, version, opId }) {
  const { me } = useSession();
  const consume = service.direction === 'consume';
  const ops = useAsync(() => get(`/services/${service.serviceId}/versions/${version.versionId}/operations`), [version.versionId]);
  const diags = useAsync(() => get(`/services/${service.serviceId}/mapping-diagnostics`, { versionId: version.versionId }), [version.versionId]);
  return html`<${Loaded} state=${ops}>${(data) => {
    const status = {};
    (diags.data?.items || []).forEach((d) => { status[d.operationId] = d.status; });
    const current = data.items.find((o) => o.operationId === opId);
    const columns = [
      { key: 'operationKey', label: 'Operation', render: (o) => html`<button type="button" class="link" aria-pressed=${o.operationId === opId ? 'true' : 'false'}
        onClick=${() => setQuery({ op: o.operationId })}>${o.operationKey}</button><div class="muted small">${o.soapOperationName} · SOAP ${o.soapVersion} · ${o.style}/${o.use}</div>` },
      { key: 'rest', label: consume ? 'REST backend call' : 'REST route', render: (o) => html`<code>${o.restMethod} ${o.restPath}</code>` },
      { key: 'timeoutMs', label: 'Timeout', render: (o) => (o.timeoutMs == null ? html`<span class="muted">default</span>` : `${o.timeoutMs} ms`) },
      { key: 'retryCount', label: 'Retries', render: (o) => (o.retryCount == null ? html`<span class="muted">default</span>` : o.retryCount) },
      { key: 'executionMode', label: 'Execution', render: (o) => (o.executionMode === 'sync' ? 'sync' : html`<${Badge} kind="info">${o.executionMode}<//>`) },
      { key: 'responseValidation', label: 'Response check', render: (o) => (!o.responseValidation || o.responseValidation === 'strict' ? 'strict'
        : html`<${Badge} kind=${o.responseValidation === 'off' ? 'warn' : 'info'}>${o.responseValidation}<//>`) },
      { key: 'mapping', label: 'Mapping', render: (o) => html`<${Status} value=${status[o.operationId]} />` },
    ];
    return html`<div class="stack">
      <${DataTable} caption="Operations" columns=${columns} rows=${data.items} rowKey=${(o) => o.operationId} empty="No operations." />
      ${consume && service.defaultBackendProfileId && html`<details class="card"><summary>Propose the REST backend calls from the backend's OpenAPI</summary>
        <${ProposeRoutes} profileId=${service.defaultBackendProfileId} ops=${data.items} editable=${version.status === 'draft' && can(me, 'operator')}
          onApplied=${() => { ops.reload(); diags.reload(); }} /></details>`}
      ${current && html`<${OperationDetail} key=${current.operationId} service=${service} op=${current} consume=${consume} draft=${version.status === 'draft'}
        onChange=${() => { ops.reload(); diags.reload(); }} />`}
    </div>`;
  }}<//>`;
}

function OperationDetail({ service, op, consume, draft, onChange }) {
  const { me } = useSession();
  const editable = draft && can(me, 'operator');
  const [form, setForm] = useState({
    operationKey: op.operationKey, restMethod: op.restMethod, restPath: op.restPath,
    timeoutMs: op.timeoutMs ?? '', retryCount: op.retryCount ?? '', executionMode: op.executionMode,
    responseValidation: op.responseValidation || 'strict',
  });
  const save = useSave();
  const set = (k) => (e) => setForm({ ...form, [k]: e.target.value });
  const submit = (e) => {
    e.preventDefault();
    const body = { operationKey: form.operationKey, restMethod: form.restMethod, restPath: form.restPath, executionMode: form.executionMode,
      responseValidation: form.responseValidation };
    if (form.timeoutMs !== '') body.timeoutMs = Number(form.timeoutMs);
    if (form.retryCount !== '') body.retryCount = Number(form.retryCount);
    save.run(async () => { await send('PATCH', `/operations/${op.operationId}`, body); onChange(); }, `Operation ${form.operationKey} saved`);
  };
  return html`<div class="stack">
    <${Section} id="op-route" title=${`Operation ${op.operationKey}`}>
      <form class="stack" onSubmit=${submit}>
        <fieldset class="grid" disabled=${!editable}>
          <legend class="sr-only">REST route and call settings</legend>
          <${Field} label="Operation key">${(a) => html`<input ...${a} value=${form.operationKey} onInput=${set('operationKey')} />`}<//>
          <${Field} label=${consume ? 'REST method (backend)' : 'REST method'}>${(a) => html`<select ...${a} value=${form.restMethod} onChange=${set('restMethod')}>
            ${['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => html`<option>${m}</option>`)}</select>`}<//>
          <${Field} label="REST path" hint=${consume
            ? 'The path s2r calls on your REST backend, appended to the backend profile\'s endpoint URL; {name} takes a field of the SOAP request.'
            : 'Below /publish/{environment}/{serviceKey}; {name} takes a request field.'}>${(a) => html`<input ...${a} value=${form.restPath} onInput=${set('restPath')} />`}<//>
          <${Field} label="Timeout (ms)" hint="Empty: the profile's or the default_timeout_ms setting.">${(a) => html`<input ...${a} type="number" min="1" value=${form.timeoutMs} onInput=${set('timeoutMs')} />`}<//>
          <${Field} label="Retries" hint="Empty: the profile's or default_retry_count.">${(a) => html`<input ...${a} type="number" min="0" value=${form.retryCount} onInput=${set('retryCount')} />`}<//>
          <${Field} label="Execution mode">${(a) => html`<select ...${a} value=${form.executionMode} onChange=${set('executionMode')}>
            <option value="sync">sync</option><option value="async_callback">async_callback</option></select>`}<//>
          <${Field} label="Response validation" hint="strict: a response that breaks the contract is 502; detect: answered, violations recorded; off: not checked.">${(a) => html`<select ...${a} value=${form.responseValidation} onChange=${set('responseValidation')}>
            <option value="strict">strict</option><option value="detect">detect</option><option value="off">off</option></select>`}<//>
        </fieldset>
        <p class="muted small">SOAP: <code>${op.soapOperationName}</code> in <code>${op.soapNamespace}</code>${op.soapAction && html`, SOAPAction <code>${op.soapAction}</code>`}</p>
        ${editable && html`<div class="actions"><button type="submit" disabled=${save.busy}>Save operation</button></div>`}
        ${save.errorBox}
      </form>
    <//>
    <${MappingEditor} op=${op} editable=${editable} onChange=${onChange} />
    <${TransformRules} op=${op} editable=${editable} />
    <${ValidationRules} op=${op} editable=${editable} />
    <${ContractViolations} service=${service} op=${op} />
  </div>`;
}
