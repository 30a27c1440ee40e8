import { useLayoutEffect, useRef } from 'react';
import type { RefObject } from 'react';
import { createStore, useStore } from '../store/createStore.ts';
import { layoutEdgeLabels } from './edgeLabelLayout.ts';
import type { LabelPlacement, LabelRequest, Rect } from './edgeLabelLayout.ts';
import { pointOnEdge } from '../observatory/edgeGeometry.ts';

/**
 * The canvas's edge labels (live rate and watermark, problem badges) laid out together: each label
 * says where its curve is and how big it is, the canvas says where the nodes are, and one layout
 * pass places them all, once per animation frame at most.
 */
const requests = new Map<string, LabelRequest>();
let nodeBoxes: () => Rect[] = () => [];
let pending = 0;

export const labelPlacements = createStore<ReadonlyMap<string, LabelPlacement>>(new Map());

function relayout(): void {
  pending = 0;
  const ordered = [...requests.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  labelPlacements.set(layoutEdgeLabels(ordered, nodeBoxes()));
}

export function scheduleLabelLayout(): void {
  if (pending) return;
  pending = requestAnimationFrame(relayout);
}

/** The canvas tells the labeller where its nodes are (flow coordinates). */
export function setNodeBoxes(read: () => Rect[]): void {
  nodeBoxes = read;
  scheduleLabelLayout();
}

/** Points along an edge's curve where its label may sit, best first: the middle, then outwards. */
export function curveAnchors(path: string, from: [number, number], to: [number, number]): [number, number][] {
  return [0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8].map((p) => pointOnEdge(path, p, from, to));
}

const signature = (r: LabelRequest) => `${r.w}x${r.h}@${r.anchors.map((a) => `${a[0].toFixed(1)},${a[1].toFixed(1)}`).join(';')}`;

/**
 * Registers one label with the layout while it is mounted and returns where it goes. Its size is
 * read from the element (offset sizes are in flow units: the viewport's scale does not change
 * them), rounded so a rate that gains a digit does not move every label.
 */
export function usePlacedLabel(id: string, anchors: [number, number][], ref: RefObject<HTMLElement | null>): LabelPlacement | undefined {
  const size = useRef({ w: 0, h: 0 });
  const key = anchors.map((a) => `${a[0].toFixed(1)},${a[1].toFixed(1)}`).join(';');
  useLayoutEffect(() => {
    const el = ref.current;
    const update = () => {
      if (el) size.current = { w: Math.ceil(el.offsetWidth / 8) * 8, h: Math.ceil(el.offsetHeight / 2) * 2 };
      const next: LabelRequest = { id, anchors, w: size.current.w, h: size.current.h };
      const prev = requests.get(id);
      if (prev && signature(prev) === signature(next)) return;
      requests.set(id, next);
      scheduleLabelLayout();
    };
    update();
    const observer = el && typeof ResizeObserver !== 'undefined' ? new ResizeObserver(update) : null;
    if (el) observer?.observe(el);
    return () => observer?.disconnect();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` stands for `anchors` by value
  }, [id, key, ref]);
  useLayoutEffect(
    () => () => {
      requests.delete(id);
      scheduleLabelLayout();
    },
    [id],
  );
  return useStore(labelPlacements, (m) => m.get(id));
}

/** The size a label was last measured at, in flow units. */
export function labelSize(id: string): { w: number; h: number } {
  const r = requests.get(id);
  return r ? { w: r.w, h: r.h } : { w: 0, h: 0 };
}
