import { compile } from '../../pipeline/compile.ts';
import type { PipelineDocument } from '../../pipeline/document.ts';
import type { PipelineTest } from '../../pipeline/tests/testSpec.ts';
import { runInProcess } from '../runInProcess.ts';
import type { Row } from '../../core/types.ts';
import { testDocument } from './runTests.ts';

const TAP = '__record_';

/**
 * Records a test from a run of the document: the first `take` records each source emitted (as it
 * emitted them, types normalized), and every sink's final table on exactly those records. The run
 * is deterministic, so this is what the designer's run showed for the same input.
 */
export function recordTest(doc: PipelineDocument, name: string, take = 20): PipelineTest {
  const sources = compile(doc).plan?.nodes.filter((n) => n.isSource).map((n) => n.id);
  const sinks = compile(doc).plan?.nodes.filter((n) => n.isSink).map((n) => n.id);
  if (!sources || !sinks) throw new Error('the pipeline has problems; fix them before recording a test');
  const tapped: PipelineDocument = {
    ...doc,
    tests: undefined,
    nodes: [...doc.nodes, ...sources.map((id) => ({ id: TAP + id, kind: 'collectSink', params: {} }))],
    edges: [...doc.edges, ...sources.map((id) => ({ from: { node: id, port: 'out' }, to: { node: TAP + id, port: 'in' } }))],
  };
  const first = runInProcess(compile(tapped).plan!).result;
  const given: Record<string, Row[]> = {};
  for (const id of sources) {
    const node = doc.nodes.find((n) => n.id === id)!;
    // A changelog source's given rows are read in its format again, so they must be its raw records.
    if (node.params.changelog) {
      if (Array.isArray(node.params.rows)) given[id] = (node.params.rows as Row[]).slice(0, take);
    } else given[id] = first.changelogs[TAP + id].slice(0, take).map((e) => e.row);
  }
  const probe: PipelineTest = { name, given, expect: [] };
  const run = runInProcess(compile(testDocument(doc, probe)).plan!, { keepChangelog: false }).result;
  return { name, given, expect: sinks.map((sink) => ({ sink, mode: 'equals' as const, rows: run.views[sink] ?? [] })) };
}
