// Confirmation dialogs on the native <dialog> element: modal, keyboard
// reachable (Escape cancels), focus returns to the opener.
import { html, useState, useEffect, useRef } from '../lib/html.js';
import { ErrorBox } from './ui.js';

// Confirm asks before an action. action is an async function; its error is
// shown in the dialog, which stays open.
export function Confirm({ open, title, children, confirmLabel = 'Confirm', danger, action, onClose }) {
  const ref = useRef(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) { setError(null); d.showModal(); }
    if (!open && d.open) d.close();
  }, [open]);
  const run = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await action();
      onClose(true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return html`<dialog ref=${ref} class="dialog" aria-labelledby="dialog-title" onCancel=${(e) => { e.preventDefault(); if (!busy) onClose(false); }}>
    <form method="dialog" onSubmit=${run}>
      <h2 id="dialog-title">${title}</h2>
      <div class="dialog-body">${children}</div>
      <${ErrorBox} error=${error} />
      <div class="actions">
        <button type="button" class="secondary" onClick=${() => onClose(false)} disabled=${busy}>Cancel</button>
        <button type="submit" class=${danger ? 'danger' : ''} disabled=${busy}>${busy ? 'Working…' : confirmLabel}</button>
      </div>
    </form>
  </dialog>`;
}

// useConfirm returns [ask, element]: ask({title, body, confirmLabel,
// danger, action}) opens the dialog; element must be rendered.
export function useConfirm() {
  const [req, setReq] = useState(null);
  const element = html`<${Confirm} open=${!!req} title=${req && req.title} confirmLabel=${req && req.confirmLabel}
    danger=${req && req.danger} action=${req ? req.action : async () => {}} onClose=${() => setReq(null)}>${req && req.body}<//>`;
  return [setReq, element];
}
