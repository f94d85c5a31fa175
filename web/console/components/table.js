// Tables with selection, paging and a filter bar.
import { html, useState, useEffect } from '../lib/html.js';
import { fmtNum } from '../lib/format.js';
import { Empty, useId } from './ui.js';

// DataTable renders rows under columns [{key, label, render?, class?}].
// With selected (a Set of keys) and onSelect, the first column has check
// boxes.
export function DataTable({ columns, rows, rowKey, caption, selected, onSelect, empty = 'Nothing to show.' }) {
  if (!rows || rows.length === 0) return html`<${Empty}>${empty}<//>`;
  const keys = rows.map(rowKey);
  const all = selected && keys.length > 0 && keys.every((k) => selected.has(k));
  const toggleAll = () => onSelect(all ? new Set() : new Set(keys));
  const toggle = (k) => {
    const next = new Set(selected);
    if (next.has(k)) next.delete(k); else next.add(k);
    onSelect(next);
  };
  return html`<div class="table-wrap"><table>
    ${caption && html`<caption class="sr-only">${caption}</caption>`}
    <thead><tr>
      ${selected && html`<th class="check"><input type="checkbox" aria-label="Select all rows" checked=${all} onChange=${toggleAll} /></th>`}
      ${columns.map((c) => html`<th scope="col" class=${c.class}>${c.label}</th>`)}
    </tr></thead>
    <tbody>${rows.map((r, i) => html`<tr key=${keys[i]} class=${selected && selected.has(keys[i]) ? 'selected' : ''}>
      ${selected && html`<td class="check"><input type="checkbox" aria-label=${`Select row ${i + 1}`} checked=${selected.has(keys[i])} onChange=${() => toggle(keys[i])} /></td>`}
      ${columns.map((c) => html`<td class=${c.class} data-label=${c.label}>${c.render ? c.render(r) : r[c.key]}</td>`)}
    </tr>`)}</tbody>
  </table></div>`;
}

// Pager moves through a paged answer {page, pageSize, totalItems, totalPages}.
export function Pager({ data, onPage }) {
  if (!data || !data.totalItems) return null;
  const { page, pageSize, totalItems, totalPages } = data;
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(page * pageSize, totalItems);
  return html`<nav class="pager" aria-label="Pages">
    <button type="button" class="secondary" disabled=${page <= 1} onClick=${() => onPage(page - 1)}>‹ Previous</button>
    <span>${fmtNum(first)}–${fmtNum(last)} of ${fmtNum(totalItems)} · page ${page} of ${Math.max(totalPages, 1)}</span>
    <button type="button" class="secondary" disabled=${page >= totalPages} onClick=${() => onPage(page + 1)}>Next ›</button>
  </nav>`;
}

// FilterBar is a row of labelled filter controls. fields: [{name, label,
// type: 'text'|'select'|'datetime-local', options?: [[value,label]], placeholder?,
// anyLabel? (the label of a select's empty choice), required? (a select
// without an empty choice), keep? (kept by Clear filters)}]. Text fields
// apply after a short pause; values is the current filter set.
export function FilterBar({ fields, values, onChange }) {
  const [draft, setDraft] = useState(values);
  useEffect(() => setDraft(values), [JSON.stringify(values)]);
  useEffect(() => {
    const changed = fields.some((f) => f.type !== 'select' && (draft[f.name] || '') !== (values[f.name] || ''));
    if (!changed) return undefined;
    const t = setTimeout(() => onChange(draft), 400);
    return () => clearTimeout(t);
  }, [JSON.stringify(draft)]);
  const set = (name, v, now) => {
    const next = { ...draft, [name]: v };
    setDraft(next);
    if (now) onChange(next);
  };
  // Clearing sends every field empty (so the owner removes them from the
  // URL), but keeps the fields marked keep (such as a source choice).
  const clear = () => {
    const none = Object.fromEntries(fields.map((f) => [f.name, f.keep ? draft[f.name] || '' : '']));
    setDraft(none);
    onChange(none);
  };
  return html`<form class="filters" role="search" onSubmit=${(e) => { e.preventDefault(); onChange(draft); }}>
    ${fields.map((f) => html`<${FilterField} key=${f.name} f=${f} value=${draft[f.name] || ''} set=${set} />`)}
    <button type="button" class="link" onClick=${clear}>Clear filters</button>
  </form>`;
}

function FilterField({ f, value, set }) {
  const id = useId('filter');
  return html`<div class="filter">
    <label for=${id}>${f.label}</label>
    ${f.type === 'select'
      ? html`<select id=${id} value=${value} onChange=${(e) => set(f.name, e.target.value, true)}>
          ${!f.required && html`<option value="">${f.anyLabel || 'Any'}</option>`}
          ${f.options.map(([v, l]) => html`<option value=${v}>${l}</option>`)}
        </select>`
      : html`<input id=${id} type=${f.type || 'search'} value=${value} placeholder=${f.placeholder}
          onInput=${(e) => set(f.name, e.target.value, false)} />`}
  </div>`;
}
