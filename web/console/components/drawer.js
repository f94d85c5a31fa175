// A side drawer on the native <dialog> element: modal (the page behind it
// is inert), Escape and the Close button close it, the focus moves into it
// when it opens and back to the element that opened it when it closes.
import { html, useEffect, useRef } from '../lib/html.js';

// Drawer shows children beside the page until onClose. fallbackFocus
// returns the element to focus when there was no opener (a deep link
// opens the drawer on its own) or the opener is gone.
export function Drawer({ title, subtitle, onClose, fallbackFocus, children }) {
  const ref = useRef(null);
  const state = useRef({ opener: null, done: false });
  const props = useRef({});
  props.current = { onClose, fallbackFocus };

  // finish gives the focus back, before the owner removes the drawer (a
  // focused element that leaves the page leaves the focus nowhere), then
  // tells the owner.
  const finish = () => {
    const s = state.current;
    if (s.done) return;
    s.done = true;
    const d = ref.current;
    if (d && d.open) d.close();
    const o = s.opener;
    const back = o && o !== document.body && o.isConnected ? o : props.current.fallbackFocus && props.current.fallbackFocus();
    if (back) back.focus();
    props.current.onClose();
  };
  useEffect(() => {
    state.current.opener = document.activeElement;
    const d = ref.current;
    if (!d.open) d.showModal();
    // Leaving the page with the drawer open: just close it.
    return () => { state.current.done = true; if (d.open) d.close(); };
  }, []);
  // The dialog closes itself on Escape.
  return html`<dialog ref=${ref} class="drawer" aria-labelledby="drawer-title" onClose=${finish}>
    <header class="drawer-head">
      <div><h2 id="drawer-title">${title}</h2>${subtitle && html`<p class="muted small">${subtitle}</p>`}</div>
      <button type="button" class="secondary" onClick=${finish}>Close</button>
    </header>
    <div class="drawer-body">${children}</div>
  </dialog>`;
}
