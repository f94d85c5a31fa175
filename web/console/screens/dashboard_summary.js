// The dashboard on the observability API: GET /dashboard/summary (KPIs
// with f5IngestStale, 24-hour traffic, top error services, virtual-server
// failures, urgent issues, data freshness) and
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
  { name: 'source', label: 'Source', type: 'select', options: sourceOptions, anyLabel: 'all sources' },
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
  if (first?.kpis?.totalServices === 0) return html`<${FirstService} />`;
  return html`<${Page} title="Dashboard" subtitle="Traffic of every source over the last 24 hours, urgent issues and service levels.">
    <${Tabs} label="Dashboard views" tabs=${[['overview', 'Overview'], ['slo', 'SLO report']]} current=${tab} onSelect=${(t) => setQuery({ tab: t })} />
    <${TabPanel} id=${tab}>${tab === 'slo' ? html`<${SLOReport} query=${query} />` : html`<${Overview} query=${query} first=${first} />`}<//>
  <//>`;
}

// FirstService is the dashboard of a platform without a service yet: it
// leads to onboarding and to the demo instead of a page of zeros.
function FirstService() {
  return html`<${Page} title="Welcome to s2r" subtitle="No service is onboarded yet.">
    <div class="card stack" aria-labelledby="first-service">
      <h2 id="first-service">Onboard your first service</h2>
      <p>Give s2r a WSDL: it drafts the REST API (publish) or the SOAP service (consume), tries it against your backend and
        activates it when you say so.</p>
      <p><${Link} class="button" href=${`${BASE}/onboard`}>Onboard your first service<//></p>
      <h2>Or try the demo first</h2>
      <p>Stop this server and start <code>make demo</code> (or <code>s2r demo</code>): it brings a SOAP calculator and a
        JSON quote service built into the binary, onboards both directions and prints <code>curl</code> commands that work
        as printed. <code>docs/quickstart.md</code> in the repository walks
        from there to your own WSDL.</p>
    </div>
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
      const src = d.parameters?.sources || [];
      const edge = src.length === 0 || src.includes('lb') || src.includes('generic');
      return html`<div class="stack">
        <p class="muted small">Generated <${When} iso=${d.generatedAt} />.</p>
        <ul class="kpis" aria-label="Key figures">
          <${Kpi} label="services" value=${fmtNum(k.totalServices)} hint=${k.activeServices != null ? `${fmtNum(k.activeServices)} active · ${fmtNum(k.servicesWithTraffic24h)} with traffic` : ''} href=${`${BASE}/services`} />
          <${Kpi} label="requests, 24 h" value=${fmtNum(k.requestCount24h)} />
          <${Kpi} label="errors, 24 h" value=${fmtNum(k.errorCount24h)} hint=${pct(k.errorPct24h)} kind=${k.errorCount24h ? 'bad' : ''} />
          <${Kpi} label="availability, 24 h" value=${pct(k.availabilityPct24h)} hint=${`target ${d.parameters?.availabilityTarget ?? 99.5} %`} />
          <${Kpi} label="p95 latency (last hour)" value=${fmtMs(k.p95LatencyMs24h)} hint=${`${fmtNum(k.p95SampleSize)} calls sampled`} />
          ${typeof k.f5IngestStale === 'boolean' && edge && html`<${Kpi} label="f5 ingest" value=${k.f5IngestStale ? 'stale' : 'ok'} kind=${k.f5IngestStale ? 'bad' : ''}
            hint=${k.f5IngestStale ? 'an f5 connector stopped sending' : 'no f5 connector is silent'} href=${`${BASE}/discovery?tab=instances`} />`}
        </ul>
        <${Section} id="traffic24" title="Traffic, last 24 hours">
          <${TimeChart} title="Requests and errors per hour" times=${t.map((p) => p.hour)}
            series=${[{ label: 'requests', kind: 'calls', values: t.map((p) => p.requestCount) }, { label: 'errors', kind: 'errors', values: t.map((p) => p.errorCount) }]} />
        <//>
        <div class="two-col">
          <${Section} id="urgent" title="Urgent issues">
            ${(d.urgentIssues || []).length === 0 ? html`<p class="empty">Nothing urgent.</p>` : html`<ul class="issues-list">${d.urgentIssues.map((i) => html`<li>
              <${Badge} kind=${severityKind[i.severity] || 'warn'}>${i.severity}<//> ${i.message}
              <${IssueContext} i=${i} /></li>`)}</ul>`}
          <//>
          <${Section} id="freshness" title="Data freshness">
            <p>${d.dataFreshness.anyStale ? html`<${Status} value="stale" /> a source is older than ${d.dataFreshness.staleAfterMinutes} minutes` : html`<${Status} value="fresh" /> every source refreshed within ${d.dataFreshness.staleAfterMinutes} minutes`}</p>
            <${DataTable} caption="Aggregation sources" rows=${d.dataFreshness.sources} rowKey=${(s) => s.source} columns=${[
              { key: 'source', label: 'Source' },
              { key: 'lastRefreshAt', label: 'Last refresh', render: (s) => (s.lastRefreshAt ? html`<${When} iso=${s.lastRefreshAt} /> <span class="muted small">${fmtAgo(s.lastRefreshAt)}</span>` : html`<span class="muted">never</span>`) },
              { key: 'stale', label: 'State', render: (s) => html`<${Status} value=${s.stale ? 'stale' : 'fresh'} />` }]} />
          <//>
        </div>
        <${VSFailures} rows=${d.topVsLevelFailures24h} sources=${d.parameters?.sources} />
        <${Section} id="top-errors" title="Top error services, 24 h">
          <${DataTable} caption="Top error services" rows=${d.topErrorServices || []} rowKey=${(s) => `${s.source}/${s.direction}/${s.environment}/${s.serviceKey}`}
            empty="No errors in the last 24 hours." columns=${[
              { key: 'service', label: 'Service', render: (s) => html`<${Link} href=${serviceLogs(s)}><code>${[s.direction, s.environment, s.serviceKey].filter(Boolean).join('/')}</code><//>` },
              { key: 'source', label: 'Source' },
              { key: 'requestCount', label: 'Requests', render: (s) => fmtNum(s.requestCount) },
              { key: 'errorCount', label: 'Errors', render: (s) => fmtNum(s.errorCount) },
              { key: 'errorPct', label: 'Error %', render: (s) => pct(s.errorPct) }]} />
        <//>
      </div>`;
    }}<//>
  </div>`;
}

// serviceLogs links a service's traffic of the last 24 hours: runtime
// records by environment and key; edge traffic by its serviceUri (the key
// of a shadow service) or, for an onboarded service, by its source.
function serviceLogs(s) {
  const q = new URLSearchParams({ window: '24h' });
  if (s.source === 'runtime') {
    q.set('environment', s.environment);
    q.set('serviceKey', s.serviceKey);
  } else {
    q.set('source', s.source);
    if (s.environment === 'discovered') q.set('serviceUri', s.serviceKey);
  }
  return `${BASE}/traffic?${q}`;
}

// IssueContext names what an urgent issue is about: a service, or a
// connector instance that stopped sending.
function IssueContext({ i }) {
  if (i.instanceId) {
    return html`<div class="muted small">${i.vendor} connector <code>${i.instanceId}</code>,
      ${i.since ? html` last heard from <${When} iso=${i.since} /> (${fmtAgo(i.since)})` : ' never heard from'} ·
      <${Link} href=${`${BASE}/discovery?tab=instances`}>connector instances<//></div>`;
  }
  if (!i.serviceKey) return null;
  return html`<div class="muted small"><code>${[i.source, i.direction, i.environment, i.serviceKey].filter(Boolean).join(' · ')}</code>
    ${i.source && html` · <${Link} href=${serviceLogs(i)}>traffic logs<//>`}</div>`;
}

// VSFailures lists topVsLevelFailures24h: load-balancer connection
// failures (reset, no_backend, tls_error, …) that no service can be blamed
// for, per front virtual server. Absent when the dashboard leaves lb out.
function VSFailures({ rows, sources }) {
  if (!rows || (sources && sources.length > 0 && !sources.includes('lb'))) return null;
  const logs = (f) => `${BASE}/traffic?${new URLSearchParams({ source: 'lb', window: '24h', frontVirtualServer: f.frontVirtualServer, resultCode: Object.keys(f.resultCodes).join(',') })}`;
  return html`<${Section} id="vs-failures" title="Virtual-server failures, 24 h">
    <p class="muted small">Load-balancer connection failures not attributable to a service, per front virtual server.</p>
    <${DataTable} caption="Virtual-server failures" rows=${rows} rowKey=${(f) => f.frontVirtualServer} empty="No virtual-server failure in the last 24 hours." columns=${[
      { key: 'frontVirtualServer', label: 'Front virtual server', render: (f) => html`<${Link} href=${logs(f)}><code>${f.frontVirtualServer || '(none)'}</code><//>` },
      { key: 'backVirtualServers', label: 'Back virtual servers', render: (f) => f.backVirtualServers.join(', ') || '—' },
      { key: 'failureCount', label: 'Failures', render: (f) => fmtNum(f.failureCount) },
      { key: 'resultCodes', label: 'Result codes', render: (f) => Object.entries(f.resultCodes).map(([c, n]) => html`<${Badge} kind="bad">${c} ${fmtNum(n)}<//> `) },
      { key: 'lastSeenAt', label: 'Last', render: (f) => html`<${When} iso=${f.lastSeenAt} />` }]} />
  <//>`;
}
