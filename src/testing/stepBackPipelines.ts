import type { PipelineDocument } from '../pipeline/document.ts';
import { loadExamples } from './examples.ts';
import { scenario } from '../generators/index.ts';

/** Counts a user's clicks until an event-time timer a minute after the first one fires. */
const CLICK_TIMER = `({
  state: { count: { kind: 'value' } },
  processElement(row, ctx) {
    const n = (ctx.state.count.value() ?? 0) + 1;
    ctx.state.count.update(n);
    if (n === 1) ctx.timerService.registerEventTimeTimer(ctx.timestamp + 5000);
  },
  onTimer(timestamp, ctx) {
    ctx.emit({ customer: ctx.key, visits: ctx.state.count.value(), until: timestamp });
    ctx.state.count.clear();
  },
})`;

/** A keyed process function with event-time timers over two parallel subtasks. */
export const processTimersDoc = (): PipelineDocument => ({
  format: 'weir/pipeline',
  version: 1,
  name: 'visits-until-timer',
  settings: { parallelism: 2, stateBackend: 'memory', seed: 42 },
  nodes: [
    { id: 'camera', kind: 'generatorSource', params: { scenario: 'coffeeVisits', count: 120, seed: 3, keys: 12, ratePerSec: 2, disorderMs: 1000 }, parallelism: 1 },
    { id: 'by_customer', kind: 'keyBy', params: { key: ['customer_id'] } },
    { id: 'visits', kind: 'process', params: { code: CLICK_TIMER } },
    { id: 'visit_counts', kind: 'viewSink', params: {}, parallelism: 1 },
  ],
  edges: [
    { from: { node: 'camera', port: 'out' }, to: { node: 'by_customer', port: 'in' } },
    { from: { node: 'by_customer', port: 'out' }, to: { node: 'visits', port: 'in' } },
    { from: { node: 'visits', port: 'out' }, to: { node: 'visit_counts', port: 'in' } },
  ],
});

/** An example pipeline by file name, with its nodes at `parallelism` (sources stay at 1). */
export function examplePipeline(file: string, parallelism = 1): PipelineDocument {
  const found = loadExamples().find((e) => e.entry.file === file);
  if (!found) throw new Error(`no example ${file} in public/examples`);
  const doc = structuredClone(found.doc) as unknown as PipelineDocument;
  return { ...doc, settings: { ...doc.settings, parallelism } };
}

/** Generator sources declare their scenario's schema, so records can be injected into them. */
function injectable(doc: PipelineDocument): PipelineDocument {
  const nodes = doc.nodes.map((n) => (n.kind === 'generatorSource' ? { ...n, params: { ...n.params, schema: { ...scenario(String(n.params.scenario))!.fields } } } : n));
  return { ...doc, nodes };
}

/** Stepping back is checked over these: joins, windows with Top-N, session windows, process timers. */
export const stepBackFixtures = (): { name: string; doc: PipelineDocument }[] =>
  [
    { name: 'left join', doc: examplePipeline('orders-payments.json', 2) },
    { name: 'tumbling window + Top-N', doc: examplePipeline('top-cities.json') },
    { name: 'interval join', doc: examplePipeline('deliveries-interval.json', 2) },
    { name: 'session windows', doc: examplePipeline('coffee-sessions.json') },
    { name: 'process with timers', doc: processTimersDoc() },
  ].map((f) => ({ ...f, doc: injectable(f.doc) }));
