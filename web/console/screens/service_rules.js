// Per-operation mapping editor, transform rules and validation rules, each
// validated by the server on save (its 400 names the part and the reason).
import { html, useState } from '../lib/html.js';
import { get } from '../lib/api.js';
import { prettyJSON } from '../lib/format.js';
import { Field, Status, useAsync, Loaded, When } from '../components/ui.js';
import { Section } from '../components/page.js';
import { Reasons } from '../components/readiness.js';
import { useConfirm } from '../components/dialog.js';
import { useSave, send, parseJSON } from './service_common.js';

const parts = [['requestMapping', 'Request mapping'], ['responseMapping', 'Response mapping'], ['faultMapping', 'Fault mapping']];

export function MappingEditor({ op, editable, onChange }) {
  const mapping = useAsync(() => get(`/operations/${op.operationId}/mapping`), [op.operationId]);
  const diag = useAsync(() => get(`/operations/${op.operationId}/mapping-diagnostics`), [op.operationId]);
  return html`<${Section} id="op-mapping" title="Mapping">
    <${Loaded} state=${mapping}>${(m) => html`<${MappingForm} key=${m.mappingId} m=${m} op=${op} editable=${editable}
      onSaved=${() => { mapping.reload(); diag.reload(); onChange(); }} />`}<//>
    <h3>Diagnostics</h3>
    <${Loaded} state=${diag}>${(d) => html`<p><${Status} value=${d.status} /></p><${Reasons} reasons=${d.reasons} />`}<//>
  <//>`;
}

function MappingForm({ m, op, editable, onSaved }) {
  const [text, setText] = useState(Object.fromEntries(parts.map(([k]) => [k, prettyJSON(m[k] ?? {})])));
  const save = useSave();
  const [ask, dialog] = useConfirm();
  const submit = (e) => {
    e.preventDefault();
    save.run(async () => {
      const body = {};
      parts.forEach(([k, label]) => { body[k] = parseJSON(text[k], label); });
      await send('PUT', `/operations/${op.operationId}/mapping`, body);
      onSaved();
    }, 'Mapping saved');
  };
  const problems = save.error?.details?.problems;
  return html`<form class="stack" onSubmit=${submit}>
    <p class="muted small">Mapping version ${m.mappingVersion} (${m.source}), <${When} iso=${m.createdAt} /> by ${m.createdBy}.
      Parts: <code>mode</code>, <code>rename</code>, <code>omit</code>, <code>pick</code> (fault), <code>restMethod</code>/<code>restPath</code>/<code>query</code>/<code>body</code> (consume).</p>
    <div class="three-col">${parts.map(([k, label]) => html`<${Field} label=${label} error=${problems?.some((p) => p.section === k) ? 'see the problems below' : ''}>${(a) => html`
      <textarea ...${a} class="mono" rows="8" spellcheck="false" readonly=${!editable} value=${text[k]} onInput=${(e) => setText({ ...text, [k]: e.target.value })}></textarea>`}<//>`)}</div>
    ${editable && html`<div class="actions">
      <button type="submit" disabled=${save.busy}>Validate and save mapping</button>
      <button type="button" class="secondary" onClick=${() => ask({ title: 'Regenerate the auto mapping?', confirmLabel: 'Regenerate',
        body: html`<p>The request and response mappings return to the generated identity mapping; the fault mapping is kept.</p>`,
        action: async () => { await send('POST', `/operations/${op.operationId}/mapping:regenerate`); onSaved(); } })}>Regenerate</button>
    </div>`}
    ${save.errorBox}
    ${problems && html`<ul class="issues" aria-label="Mapping problems">${problems.map((p) => html`<li><code>${p.section}</code>${p.field ? html` <code>${p.field}</code>` : ''}: ${p.reason}</li>`)}</ul>`}
    ${dialog}
  </form>`;
}

const kinds = ['trim', 'uppercase', 'lowercase', 'default_value', 'rename', 'split', 'join', 'date_format'];
const paramHints = { default_value: '{"value": …}', rename: '{"to": "name"}', split: '{"separator": ",", "limit": 2}', join: '{"separator": ","}', date_format: '{"from": "…", "to": "…"}' };

// RuleTable edits a list of rules as rows of inputs.
function RuleTable({ rows, setRows, columns, editable, bad, blank, label }) {
  const update = (i, k, v) => setRows(rows.map((r, j) => (j === i ? { ...r, [k]: v } : r)));
  return html`<div class="table-wrap"><table class="rules">
    <caption class="sr-only">${label}</caption>
    <thead><tr>${columns.map((c) => html`<th scope="col">${c.label}</th>`)}${editable && html`<th scope="col"><span class="sr-only">Remove</span></th>`}</tr></thead>
    <tbody>${rows.length === 0 && html`<tr><td colspan=${columns.length + 1} class="muted">No rules.</td></tr>`}
      ${rows.map((r, i) => html`<tr class=${bad === i ? 'bad-row' : ''}>${columns.map((c) => html`<td data-label=${c.label}>${c.options
        ? html`<select aria-label=${`${c.label}, rule ${i + 1}`} disabled=${!editable} value=${r[c.key]} onChange=${(e) => update(i, c.key, e.target.value)}>${c.options.map((o) => html`<option>${o}</option>`)}</select>`
        : html`<input aria-label=${`${c.label}, rule ${i + 1}`} class=${c.mono ? 'mono' : ''} readonly=${!editable} placeholder=${c.placeholder ? c.placeholder(r) : ''}
            value=${r[c.key]} onInput=${(e) => update(i, c.key, e.target.value)} />`}</td>`)}
        ${editable && html`<td><button type="button" class="link" aria-label=${`Remove rule ${i + 1}`} onClick=${() => setRows(rows.filter((_, j) => j !== i))}>Remove</button></td>`}
      </tr>`)}</tbody>
  </table>
  ${editable && html`<button type="button" class="secondary small" onClick=${() => setRows([...rows, { ...blank }])}>Add rule</button>`}</div>`;
}

export function TransformRules({ op, editable }) {
  const rules = useAsync(() => get(`/operations/${op.operationId}/transform-rules`), [op.operationId]);
  return html`<${Section} id="op-transform" title="Transform rules (request)">
    <${Loaded} state=${rules}>${(d) => html`<${TransformForm} op=${op} editable=${editable} initial=${d.rules || []} onSaved=${rules.reload} />`}<//>
  <//>`;
}

function TransformForm({ op, editable, initial, onSaved }) {
  const [rows, setRows] = useState(initial.map((r) => ({ field: r.field, kind: r.kind, params: r.params && Object.keys(r.params).length ? JSON.stringify(r.params) : '' })));
  const save = useSave();
  const submit = (e) => {
    e.preventDefault();
    save.run(async () => {
      const out = rows.map((r, i) => ({ field: r.field.trim(), kind: r.kind, params: parseJSON(r.params || '', `rules[${i}].params`) || {} }));
      await send('PUT', `/operations/${op.operationId}/transform-rules`, { rules: out });
      onSaved();
    }, 'Transform rules saved');
  };
  const columns = [
    { key: 'field', label: 'Field', mono: true, placeholder: () => '/customer/name' },
    { key: 'kind', label: 'Kind', options: kinds },
    { key: 'params', label: 'Parameters (JSON)', mono: true, placeholder: (r) => paramHints[r.kind] || '—' },
  ];
  return html`<form class="stack" onSubmit=${submit}>
    <p class="muted small">Applied in order to the request JSON before conversion. Fields are JSON Pointers (<code>/order/id</code>). Kinds: ${kinds.join(', ')}.</p>
    <${RuleTable} label="Transform rules" rows=${rows} setRows=${setRows} columns=${columns} editable=${editable} bad=${save.error?.details?.index} blank=${{ field: '', kind: 'trim', params: '' }} />
    ${editable && html`<div class="actions"><button type="submit" disabled=${save.busy}>Validate and save transform rules</button></div>`}
    ${save.errorBox}
  </form>`;
}

export function ValidationRules({ op, editable }) {
  const rules = useAsync(() => get(`/operations/${op.operationId}/validation-rules`), [op.operationId]);
  return html`<${Section} id="op-validation" title="Validation rules (regex)">
    <${Loaded} state=${rules}>${(d) => html`<${ValidationForm} op=${op} editable=${editable} initial=${d.rules || []} onSaved=${rules.reload} />`}<//>
  <//>`;
}

function ValidationForm({ op, editable, initial, onSaved }) {
  const [rows, setRows] = useState(initial.map((r) => ({ ...r })));
  const save = useSave();
  const submit = (e) => {
    e.preventDefault();
    save.run(async () => {
      await send('PATCH', `/operations/${op.operationId}/validation-rules`, { rules: rows.map((r) => ({ ...r, field: r.field.trim() })) });
      onSaved();
    }, 'Validation rules saved');
  };
  const columns = [
    { key: 'field', label: 'Field', mono: true, placeholder: () => '/items/*/code' },
    { key: 'target', label: 'Applies to', options: ['request', 'response'] },
    { key: 'pattern', label: 'Pattern (RE2)', mono: true, placeholder: () => '^[A-Z]{2}$' },
    { key: 'message', label: 'Message', placeholder: () => 'optional' },
  ];
  return html`<form class="stack" onSubmit=${submit}>
    <p class="muted small">Fields are JSON Pointers, <code>*</code> for every array item (<code>/items/*/code</code>). A request field failing its pattern answers 400 S2R-VAL-0411; a response field 502 S2R-VAL-0431.</p>
    <${RuleTable} label="Validation rules" rows=${rows} setRows=${setRows} columns=${columns} editable=${editable} bad=${save.error?.details?.index}
      blank=${{ field: '', target: 'request', pattern: '', message: '' }} />
    ${editable && html`<div class="actions"><button type="submit" disabled=${save.busy}>Validate and save validation rules</button></div>`}
    ${save.errorBox}
  </form>`;
}
