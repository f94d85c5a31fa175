// Free-text traffic search (GET /traffic-search) over every source, and
// the SOAP-to-JSON preview (POST /soap-to-json-preview) of the traffic
// screen.
import { html, useState } from '../lib/html.js';
import { get, api } from '../lib/api.js';
import { setQuery } from '../lib/router.js';
import { isoFromLocal, timeZone, fmtMs, prettyJSON } from '../lib/format.js';
import { useSession, can } from '../lib/session.js';
import { DataTable, FilterBar } from '../components/table.js';
import { Field, useAsync, Loaded, ErrorBox, Badge } from '../components/ui.js';
import { Code } from '../components/code.js';
import { columns } from './traffic_logs.js';

const searchFields = [
  { name: 'uriContains', label: 'Path, service or operation contains' },
  { name: 'backendContains', label: 'Backend contains' },
  { name: 'consumerIpContains', label: 'Consumer IP contains', placeholder: 'lb, generic' },
  { name: 'payloadContains', label: 'Payload contains', placeholder: 'lb, generic', role: 'operator' },
  { name: 'statusClass', label: 'Status', type: 'select', options: [['success', '2xx'], ['client_error', '4xx'], ['server_error', '5xx']] },
  { name: 'source', label: 'Source', type: 'select', anyLabel: 'all sources', options: [['both', 'runtime and lb'], ['runtime', 'runtime'], ['lb', 'load balancer (lb)']] },
  { name: 'direction', label: 'Direction', type: 'select', options: [['publish', 'publish'], ['consume', 'consume'], ['gateway', 'gateway']] },
  { name: 'monitorFilter', label: 'Synthetic monitor', type: 'select', options: [['has', 'services with one'], ['none', 'services without']] },
  { name: 'since', label: `From (${timeZone})`, type: 'datetime-local' },
  { name: 'until', label: `To (${timeZone})`, type: 'datetime-local' },
];

// item turns a search item into the row shape of the traffic logs.
const item = (i) => ({
  ...i, key: `${i.source}-${i.id}`, vendor: i.gatewayVendor, open: i.source === 'runtime' ? i.correlationId : i.id,
  status: i.statusCode, fault: i.inBodyFault, latency: fmtMs(i.latencyMs), peer: i.consumerIp,
  service: i.environment === 'discovered'
    ? html`<code>${i.operationKey}</code><div class="muted small">shadow</div>`
    : html`<code>${[i.direction, i.environment, i.serviceKey].filter(Boolean).join('/') || '—'}</code><div class="muted small">${i.operationKey}</div>`,
});

// TrafficSearch searches every source at once (source all unless chosen):
// newest first, at most 200 items. payloadContains is for operators and
// admins, as the API decides (a reader may not see payloads).
export function TrafficSearch({ query }) {
  const { me } = useSession();
  const fields = searchFields.filter((f) => !f.role || can(me, f.role));
  const filters = Object.fromEntries(fields.map((f) => [f.name, query.get(f.name) || '']));
  const params = { ...filters, source: filters.source || 'all', since: isoFromLocal(filters.since), until: isoFromLocal(filters.until), limit: 200 };
  const res = useAsync(() => get('/traffic-search', params), [JSON.stringify(params)]);
  return html`<div class="stack">
    <p class="muted small">Newest first, at most 200; without a time range the last hour. A filter only some sources have leaves the others out.</p>
    <${FilterBar} fields=${fields} values=${filters} onChange=${(v) => setQuery(v)} />
    <${Loaded} state=${res}>${(d) => html`${d.truncated && html`<p class="notice">More transactions match: narrow the search to see them all.</p>`}
      <${DataTable} caption="Search results" rows=${d.items.map(item)} rowKey=${(i) => i.key} columns=${columns} empty="Nothing matches." />`}<//>
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
