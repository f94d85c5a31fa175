// Page frame of a screen: its heading (focused after navigation, so
// keyboard and screen-reader users land on the new content), the
// document title, and the screen's main actions.
import { html, useEffect, useRef } from '../lib/html.js';

export function Page({ title, subtitle, actions, children }) {
  const ref = useRef(null);
  useEffect(() => {
    document.title = `${title} · s2r console`;
    if (document.activeElement === document.body || document.activeElement?.closest('nav')) ref.current?.focus();
  }, [title]);
  return html`<section class="page">
    <header class="page-head">
      <div><h1 tabindex="-1" ref=${ref}>${title}</h1>${subtitle && html`<p class="subtitle">${subtitle}</p>`}</div>
      ${actions && html`<div class="page-actions">${actions}</div>`}
    </header>
    ${children}
  </section>`;
}

// Section is a titled block of a page.
export function Section({ title, actions, children, id }) {
  return html`<section class="card" aria-labelledby=${id}>
    <header class="card-head"><h2 id=${id}>${title}</h2>${actions && html`<div class="card-actions">${actions}</div>`}</header>
    ${children}
  </section>`;
}
