// Round trip: pipeline → Flink SQL → pipeline runs to the same views as the original on the same
// input, for every example pipeline and every golden case. Sinks the SQL cannot feed (a window's
// late output) are the only ones allowed to go missing, and only with an export warning.
import { describe, expect, it } from 'vitest';
import { loadExamples } from '../../testing/examples.ts';
import { runPipeline } from '../../testing/runPipeline.ts';
import { exportFlinkSql } from '../../export/flinkSql/index.ts';
import { goldenCases, windowedGoldenCases } from '../../export/flinkSql/goldenCases.ts';
import type { Row } from '../../core/types.ts';
import { importFlinkSql } from './index.ts';

const cases = [...loadExamples().map(({ entry, doc }) => ({ name: entry.file, doc: doc as unknown, options: undefined })), ...goldenCases, ...windowedGoldenCases];

/** A view as a sorted multiset of rows with sorted keys, so field and row order do not matter. */
const canonical = (rows: readonly Row[]): string[] => rows.map((r) => JSON.stringify(r, Object.keys(r).sort())).sort();

function importOk(sql: string) {
  const imported = importFlinkSql(sql);
  if (!imported.ok) throw new Error(`import failed:\n${imported.errors.map((e) => `${e.line}:${e.column} ${e.construct}: ${e.message}`).join('\n')}`);
  return imported;
}

function roundTrip(doc: unknown, options?: Parameters<typeof exportFlinkSql>[1]) {
  const exported = exportFlinkSql(doc, options);
  return { exported, imported: importOk(exported.sql) };
}

describe('Flink SQL round trip', () => {
  for (const c of cases) {
    it(`${c.name}: the imported pipeline gives the same views`, () => {
      const { exported, imported } = roundTrip(c.doc, c.options);
      const before = runPipeline(c.doc).views;
      const after = runPipeline(imported.doc).views;
      for (const [sink, rows] of Object.entries(before)) {
        if (!(sink in after)) {
          expect(exported.warnings.map((w) => w.nodeId), `sink ${sink} vanished without a warning`).toContain(sink);
          continue;
        }
        expect(canonical(after[sink]), `view ${sink}`).toEqual(canonical(rows));
      }
      expect(Object.keys(after).every((s) => s in before)).toBe(true);
    });
  }

  it('is stable: exporting the imported pipeline and importing again changes nothing', () => {
    for (const c of cases) {
      const once = exportFlinkSql(roundTrip(c.doc, c.options).imported.doc, c.options).sql;
      const twice = exportFlinkSql(importOk(once).doc, c.options).sql;
      expect(twice, c.name).toBe(once);
    }
  });

  it('plans the exported scripts like any other: every node has its SQL span', () => {
    for (const c of cases) {
      const { imported } = roundTrip(c.doc, c.options);
      for (const n of imported.doc.nodes) expect(imported.spans?.[n.id], `${c.name}: ${n.id}`).toMatchObject({ line: expect.any(Number), column: expect.any(Number) });
    }
  });

  it('restores labels, positions and settings from the annotations', () => {
    const medallion = cases.find((c) => c.name === 'medallion.json')!.doc as { nodes: { id: string; label?: string; position?: unknown }[]; settings: unknown; description: string };
    const { imported } = roundTrip(medallion);
    expect(imported.doc.description).toBe(medallion.description);
    for (const n of medallion.nodes) {
      const back = imported.doc.nodes.find((m) => m.id === n.id)!;
      expect({ label: back.label, position: back.position }).toEqual({ label: n.label, position: n.position });
    }
    expect(imported.doc.settings).toMatchObject({ checkpoint: { intervalMs: 1000, retain: 3 }, parallelism: 1, seed: 42, stateBackend: 'memory' });
  });
});
