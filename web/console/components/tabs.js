// Tabs with the WAI-ARIA tab pattern: arrow keys move between tabs.
import { html } from '../lib/html.js';

export function Tabs({ tabs, current, onSelect, label }) {
  const keys = tabs.map((t) => t[0]);
  const onKey = (e) => {
    const i = keys.indexOf(current);
    let next = -1;
    if (e.key === 'ArrowRight') next = (i + 1) % keys.length;
    if (e.key === 'ArrowLeft') next = (i - 1 + keys.length) % keys.length;
    if (e.key === 'Home') next = 0;
    if (e.key === 'End') next = keys.length - 1;
    if (next < 0) return;
    e.preventDefault();
    onSelect(keys[next]);
    requestAnimationFrame(() => document.getElementById(`tab-${keys[next]}`)?.focus());
  };
  return html`<div class="tabs" role="tablist" aria-label=${label} onKeyDown=${onKey}>
    ${tabs.map(([key, title]) => html`<button type="button" role="tab" id=${`tab-${key}`} aria-selected=${key === current ? 'true' : 'false'}
      aria-controls=${`panel-${key}`} tabindex=${key === current ? 0 : -1} onClick=${() => onSelect(key)}>${title}</button>`)}
  </div>`;
}

export function TabPanel({ id, children }) {
  return html`<div role="tabpanel" id=${`panel-${id}`} aria-labelledby=${`tab-${id}`} class="tabpanel">${children}</div>`;
}
