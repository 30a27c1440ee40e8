/// <reference lib="webworker" />
// Pipeline tests run here, never on the main thread: a pipeline may carry user code.
import type { PipelineDocument } from '../../pipeline/document.ts';
import { runPipelineTests } from '../../runtime/pipelineTests/runTests.ts';
import { recordTest } from '../../runtime/pipelineTests/recordTest.ts';

export type TestsRequest = { id: number; op: 'run'; doc: PipelineDocument } | { id: number; op: 'record'; doc: PipelineDocument; name: string };

self.onmessage = (ev: MessageEvent<TestsRequest>) => {
  const req = ev.data;
  try {
    const result = req.op === 'run' ? runPipelineTests(req.doc, () => performance.now()) : recordTest(req.doc, req.name);
    self.postMessage({ id: req.id, ok: true, result });
  } catch (e) {
    self.postMessage({ id: req.id, ok: false, error: (e as Error).message });
  }
};
