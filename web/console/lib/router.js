// A small history-API router for the console's deep links (DESIGN 9):
// /console/dashboard, /console/services/{serviceId}, … The query string
// holds a screen's filters and tab, so every view can be linked to.
import { html, useState, useEffect } from './html.js';

export const BASE = '/console';
const listeners = new Set();
const notify = () => listeners.forEach((fn) => fn());
window.addEventListener('popstate', notify);

export function navigate(to, { replace = false } = {}) {
  if (to === location.pathname + location.search) return;
  history[replace ? 'replaceState' : 'pushState'](null, '', to);
  notify();
}

// useLocation re-renders its component on every navigation.
export function useLocation() {
  const [, setTick] = useState(0);
  useEffect(() => {
    const fn = () => setTick((n) => n + 1);
    listeners.add(fn);
    return () => listeners.delete(fn);
  }, []);
  return { path: location.pathname, query: new URLSearchParams(location.search) };
}

// setQuery merges params into the current query string (empty values
// removed) without adding a history entry.
export function setQuery(params) {
  const q = new URLSearchParams(location.search);
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === '' || v === false) q.delete(k);
    else q.set(k, String(v));
  }
  const s = q.toString();
  navigate(location.pathname + (s ? `?${s}` : ''), { replace: true });
}

// Link is an anchor that navigates in place on a plain left click and
// behaves as a normal link otherwise (new tab, copy address).
export function Link({ href, children, ...rest }) {
  const onClick = (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(href);
  };
  return html`<a href=${href} onClick=${onClick} ...${rest}>${children}</a>`;
}

// match returns the named segments of path against a pattern such as
// "/console/services/:id", or null.
export function match(pattern, path) {
  const p = pattern.split('/');
  const s = path.replace(/\/+$/, '').split('/');
  if (p.length !== s.length) return null;
  const out = {};
  for (let i = 0; i < p.length; i++) {
    if (p[i].startsWith(':')) out[p[i].slice(1)] = decodeURIComponent(s[i]);
    else if (p[i] !== s[i]) return null;
  }
  return out;
}
