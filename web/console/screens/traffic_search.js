// Free-text traffic search (GET /traffic-search) and the SOAP-to-JSON
// preview (POST /soap-to-json-preview) of the traffic screen.
import { html, useState } from '../lib/html.js';
import { get, api } from '../lib/api.js';
import { setQuery } from '../lib/router.js';
import { isoFromLocal, timeZone, fmtMs, prettyJSON } from '../lib/format.js';
import { DataTable, FilterBar } from '../components/table.js';
import { Field, Status, When, useAsync, Loaded, ErrorBox, Badge } from '../components/ui.js';
import { Code } from '../components/code.js';

const searchFields = [
  { name: 'uriContains', label: 'Path, service or operation contains' },
  { name: 'backendContains', label: 'Backend contains' },
  { name: 'consumerIpContains', label: 'Consumer IP contains', placeholder: 'lb logs' },
  { name: 'payloadContains', label: 'Payload contains', placeholder: 'lb logs' },
  { name: 'statusClass', label: 'Status', type: 'select', options: [['success', '2xx'], ['client_error', '4xx'], ['server_error', '5xx']] },
  { name: 'source', label: 'Source', type: 'select', options: [['runtime', 'runtime'], ['lb', 'load balancer'], ['both', 'both'], ['all', 'all']] },
  { name: 'direction', label: 'Direction', type: 'select', options: [['publish', 'publish'], ['consume', 'consume'], ['gateway', 'gateway']] },
  { name: 'since', label: `From (${timeZone})`, type: 'datetime-local' },
  { name: 'until', label: `To (${timeZone})`, type: 'datetime-local' },
];

export function TrafficSearch({ query }) {
  const filters = Object.fromEntries(searchFields.map((f) => [f.name, query.get(f.name) || '']));
  const res = useAsync(() => get('/traffic-search', { ...filters, since: isoFromLocal(filters.since), until: isoFromLocal(filters.until), limit: 200 }), [JSON.stringify(filters)]);
  const columns = [
    { key: 'occurredAt', label: 'When', render: (i) => html`<${When} iso=${i.occurredAt} />` },
    { key: 'source', label: 'Source' },
    { key: 'request', label: 'Request', render: (i) => html`<code>${i.method} ${i.uri}</code>${i.serviceKey && html`<div class="muted small">${[i.direction, i.environment, i.serviceKey, i.operationKey].filter(Boolean).join(' · ')}</div>`}` },
    { key: 'statusCode', label: 'HTTP', render: (i) => html`${i.statusCode}${i.inBodyFault ? html` <${Badge} kind="warn">fault<//>` : ''}` },
    { key: 'resultCode', label: 'Result', render: (i) => html`<${Status} value=${i.resultCode} />` },
    { key: 'latencyMs', label: 'Latency', render: (i) => fmtMs(i.latencyMs) },
    { key: 'backend', label: 'Backend / consumer', render: (i) => html`${i.backend || ''}${i.consumerIp && html`<div class="muted small">${i.consumerIp}</div>`}` },
    { key: 'trace', label: 'Trace', render: (i) => i.correlationId && html`<button type="button" class="link" onClick=${() => setQuery({ tab: 'trace', correlationId: i.correlationId })}>open</button>` },
  ];
  return html`<div class="stack">
    <p class="muted small">Newest first, at most 200; without a time range the last hour.</p>
    <${FilterBar} fields=${searchFields} values=${filters} onChange=${(v) => setQuery(v)} />
    <${Loaded} state=${res}>${(d) => html`${d.truncated && html`<p class="notice">More transactions match: narrow the search to see them all.</p>`}
      <${DataTable} caption="Search results" rows=${d.items} rowKey=${(i) => `${i.source}-${i.id}`} columns=${columns} empty="Nothing matches." />`}<//>
  </div>`;
}

export function SoapPreview() {
  const services = useAsync(() => get('/services', { pageSize: 200 }), []);
  const [form, setForm] = useState({ serviceId: '', operationKey: '', direction: 'response', xml: '' });
  const [state, setState] = useState({ busy: false, error: null, res: null });
  const set = (k) => (e) => setForm({ ...form, [k]: e.target.value });
  const submit = async (e) => {
    e.preventDefault();
    setState({ busy: true, error: null, res: null });
    const q = new URLSearchParams({ direction: form.direction });
    if (form.serviceId) q.set('serviceId', form.serviceId);
    if (form.operationKey.trim()) q.set('operationKey', form.operationKey.trim());
    try {
      setState({ busy: false, error: null, res: await api('POST', `/soap-to-json-preview?${q}`, form.xml, { type: 'text/xml' }) });
    } catch (error) {
      setState({ busy: false, error, res: null });
    }
  };
  return html`<form class="stack" onSubmit=${submit}>
    <p class="muted">Convert a SOAP message to the JSON a client would see: with an operation's contract and mapping, or, without one, the generic (naive) mapping.</p>
    <div class="inline-form">
      <${Field} label="Service" hint="Optional">${(a) => html`<select ...${a} value=${form.serviceId} onChange=${set('serviceId')}>
        <option value="">none (naive mapping)</option>
        ${(services.data?.items || []).map((s) => html`<option value=${s.serviceId}>${s.direction}/${s.environment}/${s.serviceKey}</option>`)}</select>`}<//>
      <${Field} label="Operation key" hint="With a service">${(a) => html`<input ...${a} value=${form.operationKey} onInput=${set('operationKey')} />`}<//>
      <${Field} label="Message">${(a) => html`<select ...${a} value=${form.direction} onChange=${set('direction')}>
        <option value="response">response</option><option value="request">request</option></select>`}<//>
    </div>
    <${Field} label="SOAP XML" wide>${(a) => html`<textarea ...${a} class="mono" rows="8" required spellcheck="false" value=${form.xml} onInput=${set('xml')}></textarea>`}<//>
    <div class="actions"><button type="submit" disabled=${state.busy}>Convert</button></div>
    <${ErrorBox} error=${state.error} />
    ${state.res && html`<div class="card"><p>Mode <${Badge} kind="info">${state.res.mode}<//>${state.res.fault ? html` <${Badge} kind="warn">fault<//>` : ''}
      ${state.res.operationKey && html` · operation <code>${state.res.operationKey}</code>`}</p>
      <${Code} title="JSON" lang="json" text=${prettyJSON(state.res.json)} /></div>`}
  </form>`;
}
