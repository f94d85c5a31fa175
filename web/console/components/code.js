// Read-only code panes for payloads: JSON and SOAP side by side.
import { html, useState } from '../lib/html.js';
import { prettyJSON, prettyXML } from '../lib/format.js';

// Code shows text in a scrollable, focusable block with a copy button.
export function Code({ title, text, lang }) {
  const [copied, setCopied] = useState(false);
  const body = lang === 'xml' ? prettyXML(text) : lang === 'json' ? prettyJSON(text) : text || '';
  const copy = async () => {
    try { await navigator.clipboard.writeText(body); setCopied(true); setTimeout(() => setCopied(false), 1500); } catch { /* clipboard refused */ }
  };
  return html`<figure class="code">
    <figcaption><span>${title}</span>${body && html`<button type="button" class="link small" onClick=${copy}>${copied ? 'Copied' : 'Copy'}</button>`}</figcaption>
    <pre tabindex="0" aria-label=${title}><code class=${lang ? `lang-${lang}` : ''}>${body || '(empty)'}</code></pre>
  </figure>`;
}

// SideBySide lays panes out in two columns (one on a narrow window).
export function SideBySide({ children }) {
  return html`<div class="side-by-side">${children}</div>`;
}
