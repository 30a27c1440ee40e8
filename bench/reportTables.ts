// The two tables of the bench report: every figure (Chromium worker and Node side by side) and the targets.
import { FIGURES, TARGETS, meets, nodeTwin, type Figure, type FigureValue } from './figures.ts';
import { fmt } from './lib/svg.ts';

export type Results = Record<string, FigureValue>;

const byName = new Map(FIGURES.map((f) => [f.name, f]));

export function value(fig: Figure, v: FigureValue | undefined): string {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined || !Number.isFinite(v)) return 'null';
  if (fig.unit === 'ratio') return v >= 100 ? fmt(v) : v.toFixed(v >= 10 ? 1 : 3);
  if (fig.unit === 'ms' || fig.unit === 'µs') return `${v.toFixed(v >= 100 ? 0 : 1)} ${fig.unit}`;
  if (fig.unit === 'bytes') return `${v.toFixed(0)} B`;
  return fmt(v);
}

const mark = (m: boolean | null) => (m === null ? '' : m ? '✅ met' : '❌ missed');
const word = (m: boolean | null, v: FigureValue) => (m !== null ? (m ? 'met' : 'missed') : typeof v === 'string' ? 'n/a' : 'not measured');

export function targetText(fig: Figure): string {
  if (!fig.target) return fig.flink !== undefined ? '' : '—';
  return fig.target.text ?? `${fig.target.op === '>=' ? '≥' : '≤'} ${fig.target.value}`;
}

/** The figure's value where it is measured: the Chromium worker's, or Node's for Node-only figures. */
const primary = (fig: Figure, results: Results): FigureValue => results[fig.name] ?? null;

/** Every figure: the Chromium worker value, the Node value where the suite also runs in Node (or only there). */
export function table(results: Results): string {
  const rows = FIGURES.map((fig) => {
    const v = primary(fig, results);
    const twin = results[nodeTwin(fig.name)];
    const [chromium, node] = fig.where === 'node' ? ['—', value(fig, v)] : [value(fig, v), twin === undefined ? '' : value(fig, twin)];
    return `| \`${fig.name}\` | ${chromium} | ${node} | ${targetText(fig)} | ${mark(meets(fig, v))} |${fig.flink !== undefined ? ` ${fmt(fig.flink)} |` : ' |'}`;
  });
  return ['| figure | Chromium worker | Node | target | | Flink 1.13 per core |', '|---|---|---|---|---|---|', ...rows].join('\n');
}

/** Per target: the figures of this run, met or missed (judged on the Chromium figure where there is one), and the previous full run. */
export function targetTable(results: Results): string {
  const rows = TARGETS.map((row) => {
    const figs = row.figures.map((n) => byName.get(n)!).filter(Boolean);
    if (row.figures.length > 2) {
      // One row for a family (the Nexmark queries): each query's value as a multiple of its target's base.
      const verdicts = figs.map((f) => meets(f, primary(f, results)));
      const values = figs.map((f) => {
        const v = primary(f, results);
        return `${f.name.split('.')[1]} ${typeof v === 'number' && f.flink ? `${(v / f.flink).toFixed(1)}×` : value(f, v)}`;
      });
      const met = verdicts.filter((m) => m === true).length;
      return `| ${row.note ? `${row.note}: ` : ''}\`${figs[0].name.replace(/\.q\d+\./, '.qN.')}\` | ≥ 10× Flink's per core | ${values.join(', ')} | ${met} of ${figs.length} met | ${row.previous} |`;
    }
    const names = figs.map((f) => `\`${f.name}\``).join(' / ');
    const targets = figs.map(targetText).join(' / ');
    const values = figs.map((f) => value(f, primary(f, results))).join(' / ');
    const verdict = figs.map((f) => word(meets(f, primary(f, results)), primary(f, results))).join(' / ');
    return `| ${names} | ${targets} | ${values} | ${verdict} | ${row.previous} |`;
  });
  return ['| figure | target | this run | | previous full run |', '|---|---|---|---|---|', ...rows].join('\n');
}
