// Small building blocks shared by every screen.
import { html, useState, useEffect, useRef } from '../lib/html.js';
import { fmtDate } from '../lib/format.js';

let fieldSeq = 0;
// useId returns an id stable for the component's life (label/for pairs).
export function useId(prefix = 'f') {
  const ref = useRef(null);
  if (ref.current === null) ref.current = `${prefix}-${++fieldSeq}`;
  return ref.current;
}

// ErrorBox shows an error as the API answered it: code, message, the
// details (file, line, field, …) and the correlation id to quote.
export function ErrorBox({ error, title }) {
  if (!error) return null;
  const details = error.details && Object.keys(error.details).length ? error.details : null;
  return html`<div class="error-box" role="alert">
    <p class="error-head">${title ? html`<span>${title}: </span>` : null}<code class="error-code">${error.code || 'ERROR'}</code>${' '}<span class="error-message">${error.message}</span></p>
    ${details && html`<dl class="error-details">${Object.entries(details).map(([k, v]) => html`<dt>${k}</dt><dd>${typeof v === 'object' ? JSON.stringify(v) : String(v)}</dd>`)}</dl>`}
    ${error.correlationId && html`<p class="muted small">correlation id <code>${error.correlationId}</code></p>`}
  </div>`;
}

// Badge is a coloured status word; kind picks the colour.
export function Badge({ kind, children, title }) {
  return html`<span class=${`badge badge-${kind || 'neutral'}`} title=${title}>${children}</span>`;
}

const statusKinds = {
  active: 'ok', READY_TO_PUBLISH: 'ok', AUTO_READY: 'ok', UP_TO_DATE: 'ok', succeeded: 'ok', pass: 'ok', closed: 'ok', healthy: 'ok', completed: 'ok', success: 'ok', sent: 'ok', ok: 'ok', fresh: 'ok', met: 'ok', revoked: 'neutral',
  draft: 'info', inactive: 'neutral', UNTRACKED: 'neutral', disabled: 'neutral', skipped: 'neutral',
  READY_WITH_RISK: 'warn', AUTO_READY_WITH_WARNINGS: 'warn', DRIFT_DETECTED: 'warn', warn: 'warn', half_open: 'warn', soap_fault: 'warn', deprecated: 'warn', waiting_callback: 'info',
  BLOCKED: 'bad', MANUAL_REQUIRED: 'bad', BREAKING_DRIFT: 'bad', failed: 'bad', fail: 'bad', open: 'bad', unhealthy: 'bad', error: 'bad', expired: 'bad', failure: 'bad', stale: 'bad', backend_failure: 'bad', timeout: 'bad', response_schema_violation: 'bad',
  reset: 'bad', no_backend: 'bad', tls_error: 'bad',
};

// Status renders a known status value as a badge of its colour.
export function Status({ value }) {
  return html`<${Badge} kind=${statusKinds[value] || 'neutral'}>${value || '—'}<//>`;
}

// Field is a labelled form control; children get id via the render prop.
export function Field({ label, hint, error, children, wide }) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  return html`<div class=${wide ? 'field wide' : 'field'}>
    <label for=${id}>${label}</label>
    ${children({ id, 'aria-describedby': hintId, 'aria-invalid': error ? 'true' : undefined })}
    ${hint && html`<small id=${hintId} class="hint">${hint}</small>`}
    ${error && html`<small class="field-error">${error}</small>`}
  </div>`;
}

// Busy shows that work is under way with the seconds it has taken.
export function Busy({ label = 'Working' }) {
  const [secs, setSecs] = useState(0);
  useEffect(() => {
    const t = setInterval(() => setSecs((s) => s + 1), 1000);
    return () => clearInterval(t);
  }, []);
  return html`<div class="busy" role="status" aria-live="polite"><span class="spinner" aria-hidden="true"></span>${label}… ${secs > 0 ? `${secs} s` : ''}</div>`;
}

// Progress is a determinate (value/max) or indeterminate bar with a label.
export function Progress({ value, max, label }) {
  return html`<div class="progress" role="status" aria-live="polite">
    <span>${label}</span>
    ${value === undefined ? html`<progress aria-label=${label}></progress>` : html`<progress value=${value} max=${max} aria-label=${label}></progress>`}
  </div>`;
}

// Empty is the text of an empty list.
export function Empty({ children }) {
  return html`<p class="empty">${children}</p>`;
}

// KeyValues lists label/value pairs.
export function KeyValues({ items }) {
  return html`<dl class="kv">${items.filter(Boolean).map(([k, v]) => html`<dt>${k}</dt><dd>${v === undefined || v === null || v === '' ? '—' : v}</dd>`)}</dl>`;
}

// When renders a timestamp in the viewer's time zone, with the ISO value
// as a machine-readable attribute.
export function When({ iso }) {
  return iso ? html`<time datetime=${iso}>${fmtDate(iso)}</time>` : html`<span class="muted">—</span>`;
}

// missingEndpoint reports whether err is the admin API's answer for a path
// it has no endpoint at (an older server than the console expects).
export function missingEndpoint(err) {
  return err && err.status === 404 && err.code === 'S2R-ADM-0404' && /no admin endpoint/.test(err.message);
}

// useAsync runs load (an async function) whenever deps change and keeps
// {data, error, loading}; reload() runs it again.
export function useAsync(load, deps) {
  const [state, setState] = useState({ data: undefined, error: null, loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => live && setState({ data, error: null, loading: false }),
      (error) => live && setState({ data: undefined, error, loading: false }),
    );
    return () => { live = false; };
  }, [...deps, tick]);
  return { ...state, reload: () => setTick((n) => n + 1) };
}

// Loaded renders the state of useAsync: a busy line, the error, or
// children(data).
export function Loaded({ state, children, label = 'Loading' }) {
  if (state.error && missingEndpoint(state.error)) {
    return html`<div class="notice"><p>This s2r server does not offer this view's admin endpoint yet.</p><${ErrorBox} error=${state.error} /></div>`;
  }
  if (state.error) return html`<${ErrorBox} error=${state.error} />`;
  if (state.data === undefined) return html`<${Busy} label=${label} />`;
  return children(state.data);
}

// announcements is the status line at the bottom of the page, read out by
// screen readers.
const announceListeners = new Set();
export function announce(message, kind = 'ok') {
  announceListeners.forEach((fn) => fn({ message, kind, at: Date.now() }));
}

export function Announcer() {
  const [msg, setMsg] = useState(null);
  useEffect(() => {
    const fn = (m) => setMsg(m);
    announceListeners.add(fn);
    return () => announceListeners.delete(fn);
  }, []);
  useEffect(() => {
    if (!msg) return undefined;
    const t = setTimeout(() => setMsg(null), 6000);
    return () => clearTimeout(t);
  }, [msg]);
  return html`<div class=${`toast ${msg ? `toast-${msg.kind} shown` : ''}`} role="status" aria-live="polite">${msg ? msg.message : ''}</div>`;
}
