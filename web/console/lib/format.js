// Formatting in the viewer's locale and time zone.

const dateTime = new Intl.DateTimeFormat(undefined, {
  year: 'numeric', month: 'short', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', timeZoneName: 'short',
});
const number = new Intl.NumberFormat();

export const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

// issueCount is how many contract violations a record's validationIssues
// stand for: one per entry, the closing marker its omitted count (a
// record lists at most 20, docs/decisions-validation.md).
export const issueCount = (issues) => (issues || []).reduce((n, v) => n + (v.omitted || 1), 0);

// issueText is one violation as a line of text; the marker says how many
// more there were.
export const issueText = (v) => (v.omitted ? `… and ${number.format(v.omitted)} more not listed` : `${v.pointer}: ${v.reason}`);

// fmtDate renders an ISO timestamp in the viewer's time zone.
export function fmtDate(iso) {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? String(iso) : dateTime.format(d);
}

// fmtAgo renders how long ago an ISO timestamp was.
export function fmtAgo(iso) {
  if (!iso) return '';
  const s = Math.round((Date.now() - new Date(iso).getTime()) / 1000);
  if (s < 60) return `${Math.max(s, 0)} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86400)} d ago`;
}

export const fmtNum = (n) => (n === null || n === undefined ? '—' : number.format(n));

export function fmtMs(ms) {
  if (ms === null || ms === undefined) return '—';
  return ms < 10 ? `${ms.toFixed(2)} ms` : `${number.format(Math.round(ms))} ms`;
}

export function fmtBytes(n) {
  if (n === null || n === undefined) return '—';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

// pretty renders JSON values and JSON text indented; other text as is.
export function prettyJSON(v) {
  if (v === undefined) return '';
  if (typeof v === 'string') {
    try { return JSON.stringify(JSON.parse(v), null, 2); } catch { return v; }
  }
  return JSON.stringify(v, null, 2);
}

// prettyXML indents XML text for reading (display only: the result is
// shown as text, never parsed as markup).
export function prettyXML(xml) {
  if (!xml || typeof xml !== 'string') return xml || '';
  const tokens = xml.replace(/>\s+</g, '><').split(/(<[^>]+>)/).filter((t) => t !== '');
  let depth = 0;
  const out = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const isTag = t.startsWith('<');
    if (isTag && t.startsWith('</')) {
      depth = Math.max(depth - 1, 0);
      out.push('  '.repeat(depth) + t);
    } else if (isTag && !t.startsWith('<?') && !t.startsWith('<!') && !t.endsWith('/>')) {
      const text = tokens[i + 1];
      const close = tokens[i + 2];
      if (text !== undefined && !text.startsWith('<') && close && close.startsWith('</')) {
        out.push('  '.repeat(depth) + t + text + close);
        i += 2;
      } else {
        out.push('  '.repeat(depth) + t);
        depth++;
      }
    } else {
      out.push('  '.repeat(depth) + t);
    }
  }
  return out.join('\n');
}

// isoFromLocal turns a datetime-local input value (the viewer's time zone)
// into an ISO 8601 instant for the API.
export function isoFromLocal(v) {
  if (!v) return '';
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString();
}

export const windowOptions = [['15m', 'last 15 minutes'], ['1h', 'last hour'], ['24h', 'last 24 hours'], ['7d', 'last 7 days'], ['30d', 'last 30 days'], ['60d', 'last 60 days']];

// sourceOptions are the traffic sources of the observability filters.
export const sourceOptions = [['lb', 'load balancer'], ['runtime', 'runtime'], ['generic', 'other gateways']];
