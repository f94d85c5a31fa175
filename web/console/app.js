// The s2r console: a browser client of /admin/v1. Everything it shows or
// does, a script can do with the same calls.
import { html, render, useState, useEffect, useRef } from './lib/html.js';
import { get, onDenied } from './lib/api.js';
import { Session, can } from './lib/session.js';
import { useLocation, Link, match, navigate, BASE } from './lib/router.js';
import { ErrorBox, Busy, Announcer } from './components/ui.js';
import { Page } from './components/page.js';
import { Dashboard } from './screens/dashboard.js';
import { Onboard } from './screens/onboard.js';
import { Services } from './screens/services.js';
import { ServicePage } from './screens/service.js';
import { Traffic } from './screens/traffic.js';
import { Async } from './screens/async.js';
import { Discovery } from './screens/discovery.js';
import { Settings } from './screens/settings.js';
import { Audit } from './screens/audit.js';

// nav lists the screens; role hides a screen a caller cannot use.
const nav = [
  ['dashboard', 'Dashboard'],
  ['onboard', 'Onboard a service', 'operator'],
  ['services', 'Services'],
  ['traffic', 'Traffic'],
  ['async', 'Async executions'],
  ['discovery', 'Discovery'],
  ['settings', 'Settings & access'],
  ['audit', 'Audit events'],
];

const routes = [
  ['/console/dashboard', Dashboard],
  ['/console/onboard', Onboard],
  ['/console/services', Services],
  ['/console/services/:serviceId', ServicePage],
  ['/console/traffic', Traffic],
  ['/console/async', Async],
  ['/console/discovery', Discovery],
  ['/console/settings', Settings],
  ['/console/audit', Audit],
];

function route(path) {
  for (const [pattern, Screen] of routes) {
    const params = match(pattern, path);
    if (params) return { Screen, params };
  }
  return null;
}

function NotFound({ path }) {
  return html`<${Page} title="No such screen"><p>The console has no screen at <code>${path}</code>.${' '}
    Go to the <${Link} href=${`${BASE}/dashboard`}>dashboard<//> or the <${Link} href=${`${BASE}/services`}>services<//>.</p><//>`;
}

// SignedOut explains a 401 (no identity) or a 403 (identity without a role).
function SignedOut({ error }) {
  const noIdentity = error.status === 401;
  return html`<main id="main" class="signed-out"><${Page} title=${noIdentity ? 'Not signed in' : 'No access'}>
    <${ErrorBox} error=${error} />
    ${noIdentity
      ? html`<p>The admin API did not receive an identity. In production the identity-aware proxy in front of s2r adds the${' '}
          <code>X-Idp-Authenticated-User-Email</code> header. To try s2r on this machine, start it with <code>make run</code>${' '}
          (it sets <code>S2R_DEV_IDENTITY</code>) and open <code>http://127.0.0.1:8080/console/</code>.</p>`
      : html`<p>Your identity has no role in s2r. An admin can grant one under Settings → Access (a permission binding or a group role binding).</p>`}
    <p><button type="button" onClick=${() => location.reload()}>Try again</button></p>
  <//></main>`;
}

function Shell({ me, children, path }) {
  const [menuOpen, setMenuOpen] = useState(false);
  // Navigating closes the folded menu (not the first render: a click can
  // come before the effects of the first render run).
  const shown = useRef(path);
  useEffect(() => {
    if (shown.current !== path) setMenuOpen(false);
    shown.current = path;
  }, [path]);
  const current = path.split('/')[2] || 'dashboard';
  return html`<div class="shell">
    <a class="skip" href="#main">Skip to content</a>
    <header class="topbar">
      <button type="button" class="menu-toggle secondary" aria-expanded=${menuOpen ? 'true' : 'false'} aria-controls="nav"
        onClick=${() => setMenuOpen(!menuOpen)}>Menu</button>
      <${Link} href=${`${BASE}/dashboard`} class="brand">s2r <span>console</span><//>
      <div class="whoami">
        <${Link} href=${`${BASE}/settings?tab=me`} title="Who am I"><span class="email">${me.email}</span><//>
        <span class=${`badge role role-${me.role}`} aria-label=${`role ${me.role}`}>${me.role}</span>
      </div>
    </header>
    <nav id="nav" class=${menuOpen ? 'nav open' : 'nav'} aria-label="Screens">
      <ul>${nav.filter(([, , role]) => !role || can(me, role)).map(([key, title]) => html`<li>
        <${Link} href=${`${BASE}/${key}`} aria-current=${current === key ? 'page' : undefined}>${title}<//></li>`)}</ul>
    </nav>
    <main id="main" tabindex="-1">${children}</main>
    <${Announcer} />
  </div>`;
}

function App() {
  const loc = useLocation();
  const [me, setMe] = useState(null);
  const [error, setError] = useState(null);
  const refresh = () => get('/me', undefined, { quiet: true }).then((m) => { setMe(m); setError(null); }, (e) => { setError(e); setMe(null); });
  useEffect(() => { refresh(); }, []);
  // A refused call may mean the caller's role changed: re-read /me so the
  // console stops offering what the server refuses (a caller left without
  // any role gets the "No access" page).
  useEffect(() => onDenied(() => {
    get('/me', undefined, { quiet: true }).then(setMe, (e) => { if (e.status === 401 || e.status === 403) { setError(e); setMe(null); } });
  }), []);
  useEffect(() => {
    if (loc.path === BASE || loc.path === `${BASE}/`) navigate(`${BASE}/dashboard`, { replace: true });
  }, [loc.path]);

  if (error) return html`<${SignedOut} error=${error} />`;
  if (!me) return html`<main id="main"><${Busy} label="Loading the console" /></main>`;
  const r = route(loc.path);
  return html`<${Session.Provider} value=${{ me, refresh }}>
    <${Shell} me=${me} path=${loc.path}>
      ${r ? html`<${r.Screen} key=${loc.path} ...${r.params} query=${loc.query} />` : html`<${NotFound} path=${loc.path} />`}
    <//>
  <//>`;
}

render(html`<${App} />`, document.getElementById('app'));
