// The dashboard on the observability API: GET /dashboard/summary (KPIs,
// 24-hour traffic, top error services, urgent issues, data freshness) and
// GET /slo-report (screens/dashboard_slo.js).
import { html } from '../lib/html.js';
import { get } from '../lib/api.js';
import { Link, setQuery, BASE } from '../lib/router.js';
import { fmtNum, fmtMs, fmtAgo, sourceOptions } from '../lib/format.js';
import { Page, Section } from '../components/page.js';
import { Tabs, TabPanel } from '../components/tabs.js';
import { DataTable, FilterBar } from '../components/table.js';
import { When, useAsync, Loaded, Status, Badge } from '../components/ui.js';
import { TimeChart } from '../components/chart.js';
import { SLOReport } from './dashboard_slo.js';

const filterFields = [
  { name: 'source', label: 'Source', type: 'select', options: sourceOptions },
  { name: 'direction', label: 'Direction', type: 'select', options: [['publish', 'publish'], ['consume', 'consume']] },
  { name: 'availabilityTarget', label: 'Availability target (%)', placeholder: '99.5' },
  { name: 'p95LatencyTargetMs', label: 'p95 target (ms)', placeholder: '500' },
  { name: 'trafficThreshold', label: 'Traffic threshold', placeholder: '50' },
];
const pct = (v) => (v == null ? '—' : `${v.toFixed(2)} %`);
const severityKind = { critical: 'bad', high: 'bad', medium: 'warn' };

function Kpi({ label, value, hint, href, kind }) {
  const body = html`<span class=${`kpi-value ${kind ? `kpi-${kind}` : ''}`}>${value}</span><span class="kpi-label">${label}</span>${hint && html`<span class="kpi-hint">${hint}</span>`}`;
  return html`<li class="kpi">${href ? html`<${Link} class="kpi-body" href=${href}>${body}<//>` : html`<div class="kpi-body">${body}</div>`}</li>`;
}

export function Summary({ query, first }) {
  const tab = query.get('tab') || 'overview';
  return html`<${Page} title="Dashboard" subtitle="Traffic of every source over the last 24 hours, urgent issues and service levels.">
    <${Tabs} label="Dashboard views" tabs=${[['overview', 'Overview'], ['slo', 'SLO report']]} current=${tab} onSelect=${(t) => setQuery({ tab: t })} />
    <${TabPanel} id=${tab}>${tab === 'slo' ? html`<${SLOReport} query=${query} />` : html`<${Overview} query=${query} first=${first} />`}<//>
  <//>`;
}

function Overview({ query, first }) {
  const filters = Object.fromEntries(filterFields.map((f) => [f.name, query.get(f.name) || '']));
  const any = Object.values(filters).some(Boolean);
  const data = useAsync(() => (any ? get('/dashboard/summary', filters) : Promise.resolve(first)), [JSON.stringify(filters)]);
  return html`<div class="stack">
    <${FilterBar} fields=${filterFields} values=${filters} onChange=${(v) => setQuery(v)} />
    <${Loaded} state=${data}>${(d) => {
      const k = d.kpis;
      const t = d.trafficTimeline24h || [];
      return html`<div class="stack">
        <p class="muted small">Generated <${When} iso=${d.generatedAt} />.</p>
        <ul class="kpis" aria-label="Key figures">
          <${Kpi} label="services" value=${fmtNum(k.totalServices)} hint=${k.activeServices != null ? `${fmtNum(k.activeServices)} active · ${fmtNum(k.servicesWithTraffic24h)} with traffic` : ''} href=${`${BASE}/services`} />
          <${Kpi} label="requests, 24 h" value=${fmtNum(k.requestCount24h)} />
          <${Kpi} label="errors, 24 h" value=${fmtNum(k.errorCount24h)} hint=${pct(k.errorPct24h)} kind=${k.errorCount24h ? 'bad' : ''} />
          <${Kpi} label="availability, 24 h" value=${pct(k.availabilityPct24h)} hint=${`target ${d.parameters?.availabilityTarget ?? 99.5} %`} />
          <${Kpi} label="p95 latency (last hour)" value=${fmtMs(k.p95LatencyMs24h)} hint=${`${fmtNum(k.p95SampleSize)} calls sampled`} />
          ${typeof k.f5IngestStale === 'boolean' && html`<${Kpi} label="load-balancer ingest" value=${k.f5IngestStale ? 'stale' : 'fresh'} kind=${k.f5IngestStale ? 'bad' : ''} href=${`${BASE}/discovery?tab=instances`} />`}
        </ul>
        <${Section} id="traffic24" title="Traffic, last 24 hours">
          <${TimeChart} title="Requests and errors per hour" times=${t.map((p) => p.hour)}
            series=${[{ label: 'requests', kind: 'calls', values: t.map((p) => p.requestCount) }, { label: 'errors', kind: 'errors', values: t.map((p) => p.errorCount) }]} />
        <//>
        <div class="two-col">
          <${Section} id="urgent" title="Urgent issues">
            ${(d.urgentIssues || []).length === 0 ? html`<p class="empty">Nothing urgent.</p>` : html`<ul class="issues-list">${d.urgentIssues.map((i) => html`<li>
              <${Badge} kind=${severityKind[i.severity] || 'warn'}>${i.severity}<//> ${i.message}
              ${i.serviceKey && html`<div class="muted small"><code>${[i.source, i.direction, i.environment, i.serviceKey].filter(Boolean).join(' · ')}</code></div>`}</li>`)}</ul>`}
          <//>
          <${Section} id="freshness" title="Data freshness">
            <p>${d.dataFreshness.anyStale ? html`<${Status} value="stale" /> a source is older than ${d.dataFreshness.staleAfterMinutes} minutes` : html`<${Status} value="fresh" /> every source refreshed within ${d.dataFreshness.staleAfterMinutes} minutes`}</p>
            <${DataTable} caption="Aggregation sources" rows=${d.dataFreshness.sources} rowKey=${(s) => s.source} columns=${[
              { key: 'source', label: 'Source' },
              { key: 'lastRefreshAt', label: 'Last refresh', render: (s) => (s.lastRefreshAt ? html`<${When} iso=${s.lastRefreshAt} /> <span class="muted small">${fmtAgo(s.lastRefreshAt)}</span>` : html`<span class="muted">never</span>`) },
              { key: 'stale', label: 'State', render: (s) => html`<${Status} value=${s.stale ? 'stale' : 'fresh'} />` }]} />
          <//>
        </div>
        <${Section} id="top-errors" title="Top error services, 24 h">
          <${DataTable} caption="Top error services" rows=${d.topErrorServices || []} rowKey=${(s) => `${s.source}/${s.direction}/${s.environment}/${s.serviceKey}`}
            empty="No errors in the last 24 hours." columns=${[
              { key: 'service', label: 'Service', render: (s) => html`<code>${s.direction}/${s.environment}/${s.serviceKey}</code>` },
              { key: 'source', label: 'Source' },
              { key: 'requestCount', label: 'Requests', render: (s) => fmtNum(s.requestCount) },
              { key: 'errorCount', label: 'Errors', render: (s) => fmtNum(s.errorCount) },
              { key: 'errorPct', label: 'Error %', render: (s) => pct(s.errorPct) }]} />
        <//>
      </div>`;
    }}<//>
  </div>`;
}
