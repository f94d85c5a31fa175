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

// MASK is what s2r stores instead of a credential (internal/redact).
export const MASK = '***redacted***';

// Headers lists recorded HTTP headers (name → value, or name → values) as
// the API returns them: credentials were masked before storage, and a
// masked value carries a "masked" mark.
export function Headers({ title, headers }) {
  const rows = Object.entries(headers || {}).sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([name, v]) => (Array.isArray(v) ? v : [v]).map((value) => [name, String(value)]));
  if (rows.length === 0) return null;
  return html`<div class="table-wrap headers"><table>
    <caption>${title}</caption>
    <thead><tr><th scope="col">Header</th><th scope="col">Value</th></tr></thead>
    <tbody>${rows.map(([name, value], i) => html`<tr key=${i}>
      <td data-label="Header"><code>${name}</code></td>
      <td data-label="Value"><code>${value}</code>${value.includes(MASK) ? html` <span class="badge badge-warn">masked</span>` : ''}</td>
    </tr>`)}</tbody>
  </table></div>`;
}

// guessLang tells XML from JSON (or other text) for a payload pane.
export const guessLang = (s) => (typeof s === 'string' && s.trim().startsWith('<') ? 'xml' : 'json');
