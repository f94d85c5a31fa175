// A side drawer on the native <dialog> element: modal (the page behind it
// is inert), Escape and the Close button close it, the focus moves into it
// when it opens and back to the element that opened it when it closes.
import { html, useEffect, useRef } from '../lib/html.js';

// Drawer shows children beside the page until onClose. fallbackFocus
// returns the element to focus when the opener is gone (a deep link
// opens the drawer without one).
export function Drawer({ title, subtitle, onClose, fallbackFocus, children }) {
  const ref = useRef(null);
  const leaving = useRef(false);
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const opener = document.activeElement;
    const d = ref.current;
    if (!d.open) d.showModal();
    return () => {
      leaving.current = true;
      if (d.open) d.close();
      const back = opener && opener !== document.body && opener.isConnected ? opener : fallbackFocus && fallbackFocus();
      if (back) back.focus();
    };
  }, []);
  // The dialog closes itself on Escape; the owner then forgets it.
  const onDialogClose = () => { if (!leaving.current) close.current(); };
  return html`<dialog ref=${ref} class="drawer" aria-labelledby="drawer-title" onClose=${onDialogClose}>
    <header class="drawer-head">
      <div><h2 id="drawer-title">${title}</h2>${subtitle && html`<p class="muted small">${subtitle}</p>`}</div>
      <button type="button" class="secondary" onClick=${() => close.current()}>Close</button>
    </header>
    <div class="drawer-body">${children}</div>
  </dialog>`;
}
