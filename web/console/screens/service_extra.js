// Consumer grants, the OpenAPI document and package, and the try-out tab
// of the service page.
import { html, useState } from '../lib/html.js';
import { get, api, download } from '../lib/api.js';
import { setQuery } from '../lib/router.js';
import { Can, useSession, can } from '../lib/session.js';
import { Field, When, useAsync, Loaded, KeyValues } from '../components/ui.js';
import { DataTable } from '../components/table.js';
import { Code } from '../components/code.js';
import { useSave, send, pickVersion } from './service_common.js';
import { TryOperation } from './try.js';
import { TryREST } from './try_rest.js';

export function Grants({ service }) {
  const grants = useAsync(() => get(`/services/${service.serviceId}/consumer-grants`), [service.serviceId]);
  return html`<${Loaded} state=${grants}>${(g) => html`<${GrantsForm} key=${g.updatedAt || 'none'} service=${service} g=${g} onSaved=${grants.reload} />`}<//>`;
}

function GrantsForm({ service, g, onSaved }) {
  const { me } = useSession();
  const [text, setText] = useState(g.cidrs.join('\n'));
  const save = useSave();
  const submit = (e) => {
    e.preventDefault();
    const cidrs = text.split(/[\s,]+/).map((s) => s.trim()).filter(Boolean);
    save.run(async () => { await send('PUT', `/services/${service.serviceId}/consumer-grants`, { cidrs }); onSaved(); }, 'Consumer grants saved');
  };
  return html`<form class="card stack" onSubmit=${submit}>
    <p>Clients whose attributed address falls in these ranges may call <code>${service.serviceKey}</code> through the gateway; others get 403 S2R-GW-0407.
      ${service.direction !== 'gateway' && html` <strong>This is a ${service.direction} service: grants apply to gateway services.</strong>`}</p>
    <${Field} label="Granted CIDRs, one per line" hint=${html`IPv4 or IPv6; a bare address is /32 or /128. Last change: ${g.updatedAt ? html`<${When} iso=${g.updatedAt} /> by ${g.updatedBy}` : 'never'}.`} wide>${(a) => html`
      <textarea ...${a} class="mono" rows="8" readonly=${!can(me, 'operator')} value=${text} onInput=${(e) => setText(e.target.value)} placeholder="10.0.0.0/8"></textarea>`}<//>
    <${Can} role="operator"><div class="actions"><button type="submit" disabled=${save.busy}>Save grants</button></div><//>
    ${save.errorBox}
  </form>`;
}

export function OpenAPIView({ service, query }) {
  const versions = useAsync(() => get(`/services/${service.serviceId}/versions`), [service.serviceId]);
  return html`<${Loaded} state=${versions}>${(vs) => {
    const v = vs.items.find((x) => x.versionId === query.get('version')) || vs.items.find((x) => x.status === 'active') || pickVersion(vs.items);
    if (!v) return html`<p class="empty">No versions.</p>`;
    return html`<div class="stack">
      <div class="toolbar"><${Field} label="Version">${(a) => html`<select ...${a} value=${v.versionId} onChange=${(e) => setQuery({ version: e.target.value })}>
        ${vs.items.map((x) => html`<option value=${x.versionId}>Version ${x.versionNumber} (${x.status})</option>`)}</select>`}<//></div>
      <${OpenAPIDoc} key=${v.versionId} service=${service} version=${v} />
    </div>`;
  }}<//>`;
}

function OpenAPIDoc({ service, version }) {
  const base = `/services/${service.serviceId}/versions/${version.versionId}`;
  const doc = useAsync(() => api('GET', `${base}/openapi`, undefined, { headers: true }), [version.versionId]);
  const gen = useSave();
  const dl = useSave();
  const file = `${service.serviceKey}-v${version.versionNumber}`;
  return html`<${Loaded} state=${doc} label="Loading the OpenAPI document">${({ json, headers }) => {
    const ops = [];
    Object.entries(json.paths || {}).forEach(([p, item]) => Object.entries(item).forEach(([m, o]) => {
      if (typeof o === 'object' && o && (o.operationId || o.summary || o.requestBody || o.responses)) ops.push({ key: `${m} ${p}`, method: m.toUpperCase(), path: p, summary: o.summary || o.operationId || '' });
    }));
    return html`<div class="stack">
      <div class="card"><${KeyValues} items=${[
        ['Title', json.info && json.info.title], ['OpenAPI', json.openapi],
        ['SHA-256', html`<code class="wrap">${headers.get('X-OpenAPI-SHA256')}</code>`],
        ['Source', headers.get('X-S2R-OpenAPI-Source') === 'stored' ? 'generated and stored' : 'generated on the fly (not stored)'],
        ['Servers', (json.servers || []).map((s) => s.url).join(', ')],
      ]} />
      <div class="actions">
        <button type="button" class="secondary" disabled=${dl.busy} onClick=${() => dl.run(() => download(`${base}/openapi`, `${file}-openapi.json`))}>Download openapi.json</button>
        <button type="button" class="secondary" disabled=${dl.busy} onClick=${() => dl.run(() => download(`${base}/openapi/package`, `${file}-openapi.zip`))}>Download package (ZIP)</button>
        <${Can} role="admin"><button type="button" disabled=${gen.busy} onClick=${() => gen.run(async () => { await send('POST', `${base}:generate-openapi`); doc.reload(); }, 'OpenAPI document generated and stored')}>Generate and store</button><//>
      </div>${dl.errorBox}${gen.errorBox}</div>
      <${DataTable} caption="REST operations" columns=${[
        { key: 'method', label: 'Method', render: (o) => html`<code>${o.method}</code>` },
        { key: 'path', label: 'Path', render: (o) => html`<code>${o.path}</code>` },
        { key: 'summary', label: 'Summary' }]} rows=${ops} rowKey=${(o) => o.key} empty="The document has no operations." />
      <details class="card"><summary>The whole document</summary><${Code} title="openapi.json" lang="json" text=${JSON.stringify(json, null, 2)} /></details>
    </div>`;
  }}<//>`;
}

export function TryTab({ service, query }) {
  const data = useAsync(async () => {
    const [vs, profiles] = await Promise.all([get(`/services/${service.serviceId}/versions`), get(`/services/${service.serviceId}/backend-profiles`)]);
    const v = pickVersion(vs.items, query.get('version'));
    const ops = v ? await get(`/services/${service.serviceId}/versions/${v.versionId}/operations`) : { items: [] };
    return { versions: vs.items, version: v, profiles, ops: ops.items };
  }, [service.serviceId, query.get('version')]);
  const [profileId, setProfileId] = useState(query.get('profile') || '');
  return html`<${Loaded} state=${data}>${(d) => {
    if (!d.version || d.profiles.length === 0) return html`<p class="empty">Trying needs a version and a backend profile.</p>`;
    const pid = (d.profiles.find((p) => p.profileId === profileId) || d.profiles.find((p) => p.isDefault) || d.profiles[0]).profileId;
    return html`<div class="stack">
      <div class="toolbar">
        <${Field} label="Version">${(a) => html`<select ...${a} value=${d.version.versionId} onChange=${(e) => setQuery({ version: e.target.value })}>
          ${d.versions.map((x) => html`<option value=${x.versionId}>Version ${x.versionNumber} (${x.status})</option>`)}</select>`}<//>
        <${Field} label="Backend profile">${(a) => html`<select ...${a} value=${pid} onChange=${(e) => setProfileId(e.target.value)}>
          ${d.profiles.map((p) => html`<option value=${p.profileId}>${p.name} — ${p.endpointUrl}</option>`)}</select>`}<//>
      </div>
      ${service.direction === 'consume'
        ? html`<${TryREST} key=${pid + d.version.versionId} profileId=${pid} operations=${d.ops} />`
        : html`<${TryOperation} key=${pid + d.version.versionId} profileId=${pid} versionId=${d.version.versionId} operations=${d.ops} />`}
      <${RecentPreviews} profileId=${pid} />
    </div>`;
  }}<//>`;
}

function RecentPreviews({ profileId }) {
  const [page, setPage] = useState(1);
  const list = useAsync(() => get(`/backend-profiles/${profileId}/test-previews`, { page, pageSize: 10 }), [profileId, page]);
  return html`<details class="card"><summary>Recent tests of this profile</summary>
    <${Loaded} state=${list}>${(d) => html`<${DataTable} caption="Recent tests" rows=${d.items} rowKey=${(p) => p.previewId} empty="No tests yet." columns=${[
      { key: 'createdAt', label: 'When', render: (p) => html`<${When} iso=${p.createdAt} /><div class="muted small">${p.createdBy}</div>` },
      { key: 'kind', label: 'Kind' }, { key: 'status', label: 'Result' }, { key: 'httpStatus', label: 'HTTP' },
      { key: 'latencyMs', label: 'Latency (ms)' }]} />
      <div class="pager"><button type="button" class="secondary" disabled=${page <= 1} onClick=${() => setPage(page - 1)}>‹ Newer</button>
        <button type="button" class="secondary" disabled=${page >= d.totalPages} onClick=${() => setPage(page + 1)}>Older ›</button></div>`}<//>
  </details>`;
}
