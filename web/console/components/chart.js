// Time-series charts with uPlot (vendored): a canvas chart with a legend,
// times in the viewer's time zone, and the same data as a table for
// screen readers and keyboard users.
import uPlot from '../vendor/uplot.mjs';
import { html, useEffect, useRef } from '../lib/html.js';
import { fmtDate, fmtNum } from '../lib/format.js';

const palette = { calls: '#2f6ea5', errors: '#a1261c', latency: '#7a4b00' };

// TimeChart draws series over times. series: [{label, values, kind:
// 'calls'|'errors'|'latency', unit?}]; series of kind latency use a second
// axis on the right.
export function TimeChart({ title, times, series, height = 220 }) {
  const ref = useRef(null);
  const key = JSON.stringify([times, series.map((s) => [s.label, s.values])]);
  useEffect(() => {
    const el = ref.current;
    if (!el || times.length === 0) return undefined;
    const hasLatency = series.some((s) => s.kind === 'latency');
    const opts = {
      width: Math.max(el.clientWidth, 280),
      height,
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: true }, ms: { auto: true } },
      series: [{}, ...series.map((s) => ({
        label: s.label,
        scale: s.kind === 'latency' ? 'ms' : 'y',
        stroke: palette[s.kind] || '#1f4e79',
        fill: s.kind === 'calls' ? 'rgba(47,110,165,0.12)' : undefined,
        width: 2,
        value: (u, v) => (v == null ? '—' : s.kind === 'latency' ? `${v.toFixed(1)} ms` : fmtNum(v)),
      }))],
      axes: [{}, { scale: 'y' }, ...(hasLatency ? [{ scale: 'ms', side: 1, grid: { show: false }, values: (u, vals) => vals.map((v) => `${v} ms`) }] : [])],
    };
    const data = [times.map((t) => new Date(t).getTime() / 1000), ...series.map((s) => s.values)];
    const chart = new uPlot(opts, data, el);
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(el.clientWidth, 280), height }));
    resize.observe(el);
    return () => { resize.disconnect(); chart.destroy(); };
  }, [key, height]);
  const totals = series.filter((s) => s.kind !== 'latency').map((s) => `${s.label}: ${fmtNum(s.values.reduce((a, v) => a + (v || 0), 0))}`).join(', ');
  return html`<figure class="chart">
    <figcaption>${title}</figcaption>
    ${times.length === 0 ? html`<p class="empty">No data in this window.</p>` : html`<div ref=${ref} class="chart-canvas" role="img" aria-label=${`${title}. ${totals}.`}></div>`}
    ${times.length > 0 && html`<details><summary>Data table</summary><div class="table-wrap"><table>
      <caption class="sr-only">${title}</caption>
      <thead><tr><th scope="col">Time</th>${series.map((s) => html`<th scope="col">${s.label}</th>`)}</tr></thead>
      <tbody>${times.map((t, i) => html`<tr><td>${fmtDate(t)}</td>${series.map((s) => html`<td>${s.values[i] == null ? '—' : s.kind === 'latency' ? `${s.values[i].toFixed(1)} ms` : fmtNum(s.values[i])}</td>`)}</tr>`)}</tbody>
    </table></div></details>`}
  </figure>`;
}
