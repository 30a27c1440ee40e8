import type { PipelineDocument } from '../../pipeline/document.ts';
import type { PipelineTest } from '../../pipeline/tests/testSpec.ts';
import type { TestOutcome } from '../../runtime/pipelineTests/runTests.ts';
import type { TestsRequest } from './testsWorker.ts';

/** Time one test run may take before the worker is stopped (a UDF that never returns). */
const TIMEOUT_MS = 30_000;

type Pending = { resolve(v: unknown): void; reject(e: Error): void };
type Req = TestsRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

/** One short-lived worker per request: a runaway test is ended by terminating it. */
function call<T>(req: Req): Promise<T> {
  const worker = new Worker(new URL('./testsWorker.ts', import.meta.url), { type: 'module' });
  return new Promise<T>((resolve, reject) => {
    const p: Pending = { resolve: resolve as (v: unknown) => void, reject };
    const timer = setTimeout(() => {
      worker.terminate();
      p.reject(new Error(`the tests ran longer than ${TIMEOUT_MS / 1000} s and were stopped`));
    }, TIMEOUT_MS);
    worker.onmessage = (ev) => {
      clearTimeout(timer);
      worker.terminate();
      if (ev.data.ok) p.resolve(ev.data.result);
      else p.reject(new Error(ev.data.error));
    };
    worker.onerror = (ev) => {
      clearTimeout(timer);
      worker.terminate();
      p.reject(new Error(ev.message || 'the test worker failed'));
    };
    worker.postMessage({ ...req, id: 1 });
  });
}

export const runTestsInWorker = (doc: PipelineDocument): Promise<TestOutcome[]> => call({ op: 'run', doc });
export const recordTestInWorker = (doc: PipelineDocument, name: string): Promise<PipelineTest> => call({ op: 'record', doc, name });
