// A small SVG line chart for the scaling curves: log x (keys), linear y from 0. A charting
// library would add a dependency and a DOM for two static curves; sixty lines do it.
export interface Series {
  label: string;
  points: [x: number, y: number | null][];
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

export function fmt(v: number): string {
  const a = Math.abs(v);
  if (a >= 1e6) return `${(v / 1e6).toFixed(a >= 1e7 ? 0 : 1)}M`;
  if (a >= 1e3) return `${(v / 1e3).toFixed(a >= 1e4 ? 0 : 1)}k`;
  if (a >= 10 || a === 0) return v.toFixed(0);
  return v.toPrecision(2);
}

export function lineChart(title: string, yLabel: string, series: Series[], w = 520, h = 260): string {
  const pad = { l: 64, r: 16, t: 28, b: 40 };
  const pts = series.flatMap((s) => s.points.filter((p): p is [number, number] => p[1] !== null && Number.isFinite(p[1])));
  if (pts.length === 0) return `<p><em>${esc(title)}: no data</em></p>`;
  const xs = pts.map((p) => Math.log10(p[0]));
  const x0 = Math.min(...xs);
  const x1 = Math.max(...xs, x0 + 1);
  const y1 = Math.max(...pts.map((p) => p[1])) * 1.1 || 1;
  const X = (x: number) => pad.l + ((Math.log10(x) - x0) / (x1 - x0)) * (w - pad.l - pad.r);
  const Y = (y: number) => h - pad.b - (y / y1) * (h - pad.t - pad.b);
  const colors = ['#2563eb', '#dc2626', '#16a34a', '#9333ea'];
  const out: string[] = [`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" font-family="sans-serif" font-size="11">`];
  out.push(`<text x="${w / 2}" y="16" text-anchor="middle" font-size="13">${esc(title)}</text>`);
  out.push(`<line x1="${pad.l}" y1="${h - pad.b}" x2="${w - pad.r}" y2="${h - pad.b}" stroke="#888"/><line x1="${pad.l}" y1="${pad.t}" x2="${pad.l}" y2="${h - pad.b}" stroke="#888"/>`);
  for (let i = 0; i <= 4; i++) {
    const v = (y1 / 4) * i;
    out.push(`<text x="${pad.l - 6}" y="${Y(v) + 4}" text-anchor="end">${fmt(v)}</text><line x1="${pad.l}" y1="${Y(v)}" x2="${w - pad.r}" y2="${Y(v)}" stroke="#eee"/>`);
  }
  for (const x of [...new Set(pts.map((p) => p[0]))]) out.push(`<text x="${X(x)}" y="${h - pad.b + 16}" text-anchor="middle">${fmt(x)}</text>`);
  out.push(`<text x="${w / 2}" y="${h - 6}" text-anchor="middle">keys (log scale)</text>`);
  out.push(`<text transform="translate(14 ${h / 2}) rotate(-90)" text-anchor="middle">${esc(yLabel)}</text>`);
  series.forEach((s, i) => {
    const ok = s.points.filter((p): p is [number, number] => p[1] !== null && Number.isFinite(p[1]));
    const c = colors[i % colors.length];
    out.push(`<polyline fill="none" stroke="${c}" stroke-width="2" points="${ok.map((p) => `${X(p[0]).toFixed(1)},${Y(p[1]).toFixed(1)}`).join(' ')}"/>`);
    for (const p of ok) out.push(`<circle cx="${X(p[0]).toFixed(1)}" cy="${Y(p[1]).toFixed(1)}" r="3" fill="${c}"><title>${fmt(p[1])}</title></circle>`);
    out.push(`<text x="${pad.l + 8}" y="${pad.t + 14 + i * 14}" fill="${c}">${esc(s.label)}</text>`);
  });
  out.push('</svg>');
  return out.join('');
}
