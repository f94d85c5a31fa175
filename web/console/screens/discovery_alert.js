// The alert rule of a discovered service URI (PUT …/rows/{rowId}/alert):
// mail when the last hour's failures cross a threshold.
import { html, useState } from '../lib/html.js';
import { api } from '../lib/api.js';
import { useSession, can } from '../lib/session.js';
import { Field, When, ErrorBox, announce } from '../components/ui.js';

export function AlertRule({ row, rule }) {
  const { me } = useSession();
  const writer = can(me, 'operator');
  const r = rule || { enabled: false, minCalls1h: 20, failurePctThreshold: 10, failureCountThreshold: 5 };
  const [form, setForm] = useState({ enabled: r.enabled, minCalls1h: r.minCalls1h, failurePctThreshold: r.failurePctThreshold, failureCountThreshold: r.failureCountThreshold });
  const [state, setState] = useState({ busy: false, error: null, saved: null });
  const set = (k) => (e) => setForm({ ...form, [k]: e.target.type === 'checkbox' ? e.target.checked : e.target.value });
  const submit = async (e) => {
    e.preventDefault();
    setState({ busy: true, error: null, saved: null });
    try {
      const saved = await api('PUT', `/master-discovery/rows/${row.rowId}/alert`, {
        enabled: form.enabled, minCalls1h: Number(form.minCalls1h), failurePctThreshold: Number(form.failurePctThreshold), failureCountThreshold: Number(form.failureCountThreshold),
      });
      setState({ busy: false, error: null, saved });
      announce(`Alert rule ${saved.status} for ${saved.serviceUri}`);
    } catch (error) {
      setState({ busy: false, error, saved: null });
    }
  };
  return html`<form class="stack" onSubmit=${submit}>
    <p class="muted small">${rule ? html`Last changed <${When} iso=${rule.updatedAt} /> by ${rule.updatedBy}.` : 'No rule yet: the defaults are shown.'}
      ${!row.lbInstanceId && ' Alert rules apply to URIs seen by a load balancer.'}</p>
    <fieldset class="grid" disabled=${!writer}>
      <legend class="sr-only">Alert rule</legend>
      <div class="field check"><label><input type="checkbox" checked=${form.enabled} onChange=${set('enabled')} /> Alert enabled</label></div>
      <${Field} label="Minimum calls in an hour">${(a) => html`<input ...${a} type="number" min="0" value=${form.minCalls1h} onInput=${set('minCalls1h')} />`}<//>
      <${Field} label="Failure % threshold">${(a) => html`<input ...${a} type="number" min="0" max="100" step="0.1" value=${form.failurePctThreshold} onInput=${set('failurePctThreshold')} />`}<//>
      <${Field} label="Failure count threshold">${(a) => html`<input ...${a} type="number" min="0" value=${form.failureCountThreshold} onInput=${set('failureCountThreshold')} />`}<//>
    </fieldset>
    ${writer && html`<div class="actions"><button type="submit" disabled=${state.busy}>Save alert rule</button></div>`}
    <${ErrorBox} error=${state.error} />
    ${state.saved && html`<p role="status">Saved for <code>${state.saved.serviceUri}</code>.</p>`}
  </form>`;
}
