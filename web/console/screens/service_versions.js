// Versions of a service: draft, active and earlier ones; readiness, WSDL
// drift and replacement drafts; activation and rollback.
import { html } from '../lib/html.js';
import { get } from '../lib/api.js';
import { setQuery } from '../lib/router.js';
import { Can } from '../lib/session.js';
import { DataTable } from '../components/table.js';
import { Status, When, useAsync, Loaded, Badge } from '../components/ui.js';
import { Readiness } from '../components/readiness.js';
import { useConfirm } from '../components/dialog.js';
import { Section } from '../components/page.js';
import { useSave, send, pickVersion } from './service_common.js';
import { ViolationsNotice } from './service_violations.js';

export function Versions({ service, onChange }) {
  const versions = useAsync(() => get(`/services/${service.serviceId}/versions`), [service.serviceId]);
  const [ask, dialog] = useConfirm();
  const create = useSave();
  const wanted = new URLSearchParams(location.search).get('version');
  const changed = () => { versions.reload(); onChange(); };

  const act = (v, verb, list) => {
    const path = `/services/${service.serviceId}/versions/${v.versionId}`;
    const current = list.find((x) => x.status === 'active');
    const served = current
      ? `; version ${current.versionNumber}, active now, becomes inactive and can be rolled back to.`
      : ': no version was active before, so the service starts answering at its runtime URL.';
    const spec = {
      activate: ['Activate', `Version ${v.versionNumber} becomes the version the runtime serves${served}`, ':activate'],
      rollback: ['Roll back', `Version ${v.versionNumber} becomes active again; the current active version becomes inactive.`, ':rollback'],
    }[verb];
    ask({ title: `${spec[0]} to version ${v.versionNumber}?`, confirmLabel: spec[0], body: html`<p>${spec[1]}</p>`,
      action: async () => { await send('POST', path + spec[2]); changed(); } });
  };

  return html`<${Loaded} state=${versions}>${(data) => {
    const list = data.items;
    const hasDraft = list.some((v) => v.status === 'draft');
    const selected = pickVersion(list, wanted);
    const columns = [
      { key: 'versionNumber', label: 'Version', render: (v) => html`<button type="button" class="link" aria-pressed=${selected && v.versionId === selected.versionId ? 'true' : 'false'}
        onClick=${() => setQuery({ version: v.versionId })}>Version ${v.versionNumber}</button>` },
      { key: 'status', label: 'Status', render: (v) => html`<${Status} value=${v.status} />` },
      { key: 'createdAt', label: 'Created', render: (v) => html`<${When} iso=${v.createdAt} /><div class="muted small">${v.createdBy}</div>` },
      { key: 'activatedAt', label: 'Activated', render: (v) => html`<${When} iso=${v.activatedAt} />` },
      { key: 'note', label: 'Note' },
      { key: 'actions', label: 'Actions', render: (v) => html`<${Can} role="operator">
        ${v.status === 'draft' && html`<button type="button" class="small" onClick=${() => act(v, 'activate', list)}>Activate</button>`}
        ${v.status === 'inactive' && v.activatedAt && html`<button type="button" class="small secondary" onClick=${() => act(v, 'rollback', list)}>Roll back to this</button>`}
      <//>` },
    ];
    return html`<div class="stack">
      <div class="toolbar">
        <${Can} role="operator">
          <button type="button" class="secondary" disabled=${hasDraft || create.busy}
            title=${hasDraft ? 'A draft exists already' : 'Clone the active version into a draft'}
            onClick=${() => create.run(async () => { await send('POST', `/services/${service.serviceId}/versions`, {}); changed(); }, 'Draft created')}>New draft</button>
        <//>
      </div>
      ${create.errorBox}
      <${DataTable} caption="Versions" columns=${columns} rows=${list} rowKey=${(v) => v.versionId} empty="No versions." />
      ${selected && html`<${VersionDetail} key=${selected.versionId} service=${service} version=${selected} hasDraft=${hasDraft} onChange=${changed} />`}
      ${dialog}
    </div>`;
  }}<//>`;
}

function VersionDetail({ service, version, hasDraft, onChange }) {
  const base = `/services/${service.serviceId}/versions/${version.versionId}`;
  const readiness = useAsync(() => get(`${base}/publish-readiness`), [version.versionId]);
  const drift = useAsync(() => get(`${base}/wsdl-drift`), [version.versionId]);
  const replace = useSave();
  return html`<${ViolationsNotice} service=${service} />
  <div class="two-col">
    <${Section} id="v-readiness" title=${`Version ${version.versionNumber}: publish readiness`}>
      <${Loaded} state=${readiness}>${(r) => html`<${Readiness} report=${r} />`}<//>
    <//>
    <${Section} id="v-drift" title="WSDL drift">
      <${Loaded} state=${drift}>${(d) => html`
        <p><${Status} value=${d.status} /> ${d.reason}</p>
        ${d.comparedArtifactId && html`<p class="muted small">Compared with import <code>${d.comparedArtifactId}</code>,
          the newest import attached to this service; imports made for other services never count.</p>`}
        ${d.changes && d.changes.length > 0 && html`<ul class="issues">${d.changes.map((c) => html`<li>
          <${Badge} kind=${c.breaking ? 'bad' : 'warn'}>${c.kind}<//> ${driftChange(c)}</li>`)}</ul>`}
        ${(d.status === 'DRIFT_DETECTED' || d.status === 'BREAKING_DRIFT') && html`<${Can} role="operator">
          <p>A newer import of this service's WSDL exists. A replacement draft built from it keeps routes, timeouts, retries, rules and still-valid mappings.</p>
          <button type="button" disabled=${hasDraft || replace.busy} title=${hasDraft ? 'A draft exists already' : ''}
            onClick=${() => replace.run(async () => { await send('POST', `${base}:generate-replacement-draft`); onChange(); }, 'Replacement draft created')}>Generate replacement draft</button>
          ${replace.errorBox}
        <//>`}`}<//>
    <//>
  </div>`;
}

// driftChange says in words what one drift change is about: the operation,
// for a field change the message and the field, and the old and new value.
function driftChange(c) {
  const op = c.operation && html`<code>${c.operation}</code>`;
  const types = c.old && c.new ? ` (${c.old} → ${c.new})` : c.old ? ` (was ${c.old})` : c.new ? ` (${c.new})` : '';
  if (!c.field) return html`${op} ${c.message}${types}`;
  return html`${op} ${c.message}: field <code>${c.field}</code>${types}`;
}
