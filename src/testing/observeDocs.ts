import { loadExamples } from './examples.ts';

/** Example pipelines by file name (public/examples), for the observer's tests. */
export function example(file: string): Record<string, unknown> {
  const found = loadExamples().find((e) => e.entry.file === file);
  if (!found) throw new Error(`example ${file} is not in public/examples/index.json`);
  return structuredClone(found.doc);
}

/** A join with parallelism 2 whose inputs both carry barriers: alignment happens. */
export function joinDoc(): Record<string, unknown> {
  const rows = Array.from({ length: 400 }, (_, i) => ({ order_id: `o${i % 50}`, amount: i % 17, ts: i * 100 }));
  const payments = Array.from({ length: 300 }, (_, i) => ({ order_id: `o${i % 50}`, paid: i % 5, ts: i * 130 }));
  return {
    format: 'weir/pipeline',
    version: 1,
    name: 'observe-join',
    settings: { parallelism: 2 },
    nodes: [
      { id: 'orders', kind: 'inlineSource', params: { rows, eventTime: { field: 'ts' } }, parallelism: 1 },
      { id: 'payments', kind: 'inlineSource', params: { rows: payments, eventTime: { field: 'ts' } }, parallelism: 1 },
      { id: 'j', kind: 'join', params: { type: 'inner', leftKey: ['order_id'], rightKey: ['order_id'] } },
      { id: 'view', kind: 'viewSink', params: {} },
    ],
    edges: [
      { from: { node: 'orders', port: 'out' }, to: { node: 'j', port: 'left' } },
      { from: { node: 'payments', port: 'out' }, to: { node: 'j', port: 'right' } },
      { from: { node: 'j', port: 'out' }, to: { node: 'view', port: 'in' } },
    ],
  };
}

/** Tumbling 1 s windows with allowed lateness, so a fired pane stays visible until it is purged. */
export function windowDoc(): Record<string, unknown> {
  const rows = Array.from({ length: 60 }, (_, i) => ({ user: `u${i % 3}`, n: 1, ts: i * 100 }));
  rows.push({ user: 'u0', n: 1, ts: 50 }); // arrives after the watermark passed its window: late
  return {
    format: 'weir/pipeline',
    version: 1,
    name: 'observe-window',
    settings: { parallelism: 1 },
    nodes: [
      { id: 'clicks', kind: 'inlineSource', params: { rows, eventTime: { field: 'ts' } } },
      { id: 'w', kind: 'window', params: { type: 'tumble', sizeMs: 1000, allowedLatenessMs: 500, groupBy: ['user'], aggregates: [{ fn: 'count', as: 'cnt' }] } },
      { id: 'view', kind: 'viewSink', params: {} },
    ],
    edges: [
      { from: { node: 'clicks', port: 'out' }, to: { node: 'w', port: 'in' } },
      { from: { node: 'w', port: 'out' }, to: { node: 'view', port: 'in' } },
    ],
  };
}
