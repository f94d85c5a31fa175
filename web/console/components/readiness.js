// Publish readiness and mapping diagnostics, as autopilot and the version
// endpoints report them.
import { html } from '../lib/html.js';
import { Status, Badge } from './ui.js';

// Readiness shows a publish-readiness report: status, checks, blocking
// issues, risks and suggested actions.
export function Readiness({ report }) {
  if (!report) return null;
  const issues = (list, kind) => list && list.length > 0 && html`<ul class="issues">${list.map((i) => html`<li>
    <${Badge} kind=${kind}>${i.code}<//> ${i.operationKey && html`<code>${i.operationKey}</code>`} ${i.message}</li>`)}</ul>`;
  return html`<div class="readiness">
    <p>Publish readiness: <${Status} value=${report.status} /></p>
    ${issues(report.blockingIssues, 'bad')}
    ${issues(report.risks, 'warn')}
    ${report.checks && html`<ul class="checks">${report.checks.map((c) => html`<li><${Status} value=${c.status} /> <strong>${c.name}</strong> — ${c.message}</li>`)}</ul>`}
    ${report.suggestedActions && report.suggestedActions.length > 0 && html`<p>Suggested:</p><ul>${report.suggestedActions.map((a) => html`<li>${a}</li>`)}</ul>`}
  </div>`;
}

// DiagnosticsSummary shows the counters of mapping diagnostics.
export function DiagnosticsSummary({ summary }) {
  if (!summary) return null;
  return html`<p class="counters">${['AUTO_READY', 'AUTO_READY_WITH_WARNINGS', 'MANUAL_REQUIRED'].map((k) => html`
    <span><${Status} value=${k} /> ${summary[k] ?? 0}</span>`)}</p>`;
}

// Reasons lists the reasons of one operation's diagnostics.
export function Reasons({ reasons }) {
  if (!reasons || reasons.length === 0) return html`<span class="muted">none</span>`;
  return html`<ul class="reasons">${reasons.map((r) => html`<li><${Badge} kind=${r.severity === 'error' ? 'bad' : 'warn'}>${r.code}<//>
    ${r.section && html` <span class="muted">${r.section}</span>`}${r.field && html` <code>${r.field}</code>`} ${r.message}</li>`)}</ul>`;
}
