/**
 * Where each edge label goes, so that no label covers a node or another label.
 *
 * The gaps between operators are often narrower than a label, so a label cannot always sit on its
 * own curve. Each label is tried at a few points along its curve first (the middle, then further
 * out), then at growing distances around those points in 16 directions, like a map labeller. The
 * first free spot wins; a label placed off its curve is drawn with a leader line back to it. When
 * nothing is free within reach the label keeps the middle of its curve.
 */

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface LabelRequest {
  id: string;
  /** Points on the edge's curve, best first. */
  anchors: [number, number][];
  w: number;
  h: number;
}

export interface LabelPlacement {
  /** Centre of the label. */
  x: number;
  y: number;
  /** The point on the curve the label belongs to. */
  anchor: [number, number];
  /** Whether the label had to leave its curve (and so needs a leader line). */
  displaced: boolean;
  /** Whether a free spot was found at all. */
  free: boolean;
}

/** Space kept clear around a label, in flow units. */
const GAP = 4;
const RING_STEP = 10;
const MAX_RADIUS = 220;
const DIRECTIONS = Array.from({ length: 16 }, (_, i) => {
  // Up and down first: a label above or below its curve reads as belonging to it.
  const order = [12, 4, 11, 13, 3, 5, 10, 14, 2, 6, 9, 15, 1, 7, 8, 0];
  const a = (order[i] / 16) * 2 * Math.PI;
  return [Math.cos(a), Math.sin(a)] as const;
});

const hits = (a: Rect, b: Rect) => a.x < b.x + b.w && a.x + a.w > b.x && a.y < b.y + b.h && a.y + a.h > b.y;

function boxAt(cx: number, cy: number, w: number, h: number): Rect {
  return { x: cx - w / 2 - GAP, y: cy - h / 2 - GAP, w: w + 2 * GAP, h: h + 2 * GAP };
}

/** Is the box clear of every node and every label already placed near it? */
function free(box: Rect, near: Rect[]): boolean {
  for (const r of near) if (hits(box, r)) return false;
  return true;
}

/**
 * Places labels in order (shortest reach first is the caller's choice; the order here is the
 * order given, so the result is deterministic). `obstacles` are the node boxes.
 */
export function layoutEdgeLabels(labels: LabelRequest[], obstacles: Rect[]): Map<string, LabelPlacement> {
  const out = new Map<string, LabelPlacement>();
  const placed: Rect[] = [];
  for (const l of labels) {
    if (l.anchors.length === 0) continue;
    const reach = MAX_RADIUS + Math.max(l.w, l.h);
    // Only boxes within reach can collide: keeps this linear in practice for large graphs.
    const ax = l.anchors.map((a) => a[0]);
    const ay = l.anchors.map((a) => a[1]);
    const zone: Rect = { x: Math.min(...ax) - reach, y: Math.min(...ay) - reach, w: Math.max(...ax) - Math.min(...ax) + 2 * reach, h: Math.max(...ay) - Math.min(...ay) + 2 * reach };
    const near = obstacles.filter((r) => hits(r, zone)).concat(placed.filter((r) => hits(r, zone)));
    let found: LabelPlacement | null = null;
    for (let r = 0; r <= MAX_RADIUS && !found; r += RING_STEP) {
      for (const anchor of l.anchors) {
        const dirs = r === 0 ? [[0, 0] as const] : DIRECTIONS;
        for (const [dx, dy] of dirs) {
          // Stretch the ring to the label's shape so a wide label moves sideways further than up.
          const cx = anchor[0] + dx * r * (l.w / Math.max(l.h, 1)) ** 0.5;
          const cy = anchor[1] + dy * r;
          const box = boxAt(cx, cy, l.w, l.h);
          if (free(box, near)) {
            found = { x: cx, y: cy, anchor, displaced: !containsPoint(box, anchor), free: true };
            break;
          }
        }
        if (found) break;
      }
    }
    const placement = found ?? { x: l.anchors[0][0], y: l.anchors[0][1], anchor: l.anchors[0], displaced: false, free: false };
    out.set(l.id, placement);
    placed.push(boxAt(placement.x, placement.y, l.w, l.h));
  }
  return out;
}

function containsPoint(r: Rect, [x, y]: [number, number]): boolean {
  return x >= r.x && x <= r.x + r.w && y >= r.y && y <= r.y + r.h;
}

/** The point of a rectangle's edge closest to `p`: where a leader line from `p` meets the label. */
export function nearestOnRect(r: Rect, p: [number, number]): [number, number] {
  return [Math.min(Math.max(p[0], r.x), r.x + r.w), Math.min(Math.max(p[1], r.y), r.y + r.h)];
}
