import type { PipelineDocument } from '../../pipeline/document.ts';
import { kindSpec } from '../../pipeline/kinds/index.ts';

const W = 180;
const H = 32;

/** A small SVG picture of a pipeline from its node positions: boxes coloured by group, lines for edges. */
export function Thumbnail({ doc, width = 240, height = 120 }: { doc: PipelineDocument; width?: number; height?: number }) {
  const pos = new Map(doc.nodes.map((n, i) => [n.id, n.position ?? { x: i * 260, y: 0 }]));
  const xs = [...pos.values()].map((p) => p.x);
  const ys = [...pos.values()].map((p) => p.y);
  const minX = Math.min(0, ...xs) - 20;
  const minY = Math.min(0, ...ys) - 20;
  const maxX = Math.max(W, ...xs.map((x) => x + W)) + 20;
  const maxY = Math.max(H, ...ys.map((y) => y + H * 2)) + 20;
  return (
    <svg className="thumb" width={width} height={height} viewBox={`${minX} ${minY} ${maxX - minX} ${maxY - minY}`} preserveAspectRatio="xMidYMid meet" aria-hidden>
      {doc.edges.map((e, i) => {
        const a = pos.get(e.from.node);
        const b = pos.get(e.to.node);
        if (!a || !b) return null;
        const x1 = a.x + W;
        const y1 = a.y + H;
        const x2 = b.x;
        const y2 = b.y + H;
        const mx = (x1 + x2) / 2;
        return <path key={i} d={`M${x1},${y1} C${mx},${y1} ${mx},${y2} ${x2},${y2}`} className="thumb-edge" />;
      })}
      {doc.nodes.map((n) => {
        const p = pos.get(n.id)!;
        return <rect key={n.id} x={p.x} y={p.y} width={W} height={H * 2} rx={12} className="thumb-node" style={{ fill: `var(--g-${kindSpec(n.kind)?.group ?? 'unknown'})` }} />;
      })}
    </svg>
  );
}
