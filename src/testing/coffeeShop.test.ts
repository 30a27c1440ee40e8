import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Row } from '../core/types.ts';
import { derivedSeed } from '../core/rng.ts';
import { generatorSource } from '../engine/operators/generatorSource.ts';
import type { GeneratorSourceParams } from '../pipeline/kinds/generatorSource.ts';
import type { PipelineDocument } from '../pipeline/document.ts';
import { runPipeline } from './runPipeline.ts';

const load = (path: string): PipelineDocument => JSON.parse(readFileSync(path, 'utf8')) as PipelineDocument;

/** The camera's records in the order the source sends them. */
function cameraRecords(doc: PipelineDocument): Row[] {
  const camera = doc.nodes.find((n) => n.id === 'camera')!;
  const reader = generatorSource.open(camera.params as unknown as GeneratorSourceParams, { seed: derivedSeed(doc.settings?.seed ?? 0, 'camera') });
  const out: Row[] = [];
  while (!reader.done()) for (const r of reader.read(256)) out.push(r.value as Row);
  return out;
}

const bigDrinks = (rows: readonly Row[], min: number): Row[] => rows.filter((r) => r.visit_type === 'order' && typeof r.amount === 'number' && r.amount >= min);

// The coffee-shop camera is the first pipeline a newcomer runs: a filter that passes nothing for
// the first seconds (every entry arriving before any order) looks broken, not stateless.
describe.each(['public/examples/coffee-shop.json', 'public/lessons/lesson-1.json'])('%s: "Drinks of $3.50 or more"', (path) => {
  const doc = load(path);
  const records = cameraRecords(doc);
  const run = runPipeline(doc);
  const passed = run.changelogs.big_log.map((e) => e.row);

  it('passes exactly the orders of $3.50 or more, in the order the camera sends them', () => {
    const expected = bigDrinks(records, 3.5);
    expect(expected.length).toBeGreaterThan(50);
    expect(passed).toEqual(expected);
  });

  it('passes drinks from the first second of a run at 50 records/s, not after every entry', () => {
    expect(bigDrinks(records.slice(0, 50), 3.5).length).toBeGreaterThanOrEqual(3);
    expect(records.slice(0, 50).filter((r) => r.visit_type === 'order').length).toBeGreaterThanOrEqual(8);
  });
});
