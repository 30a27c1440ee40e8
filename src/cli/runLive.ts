import { performance } from 'node:perf_hooks';
import { Executor } from '../engine/executor.ts';
import { liveLinesReader } from '../engine/source.ts';
import { ManualClock } from '../engine/time/clock.ts';
import type { JobPlan } from '../pipeline/plan.ts';
import type { Inputs } from './inputs.ts';
import type { RunOutput } from './runOutput.ts';
import type { RunSummary } from './run.ts';
import { sourceCounter, summarize } from './run.ts';

/** How often a live run wakes without input: processing-time timers and idle sources need it. */
const TICK_MS = 50;

/**
 * Runs a job on a live input: every chunk of standard input is pushed through the pipeline
 * as it arrives and the output is flushed after it, so results appear while the input is
 * still open. Processing time is wall-clock time since the start. At the end of the input the
 * source ends (watermark +∞) and whatever waits on the watermark fires.
 */
export function executeLive(plan: JobPlan, inputs: Inputs, sourceId: string, stdin: NodeJS.ReadableStream, output: RunOutput): Promise<RunSummary> {
  const started = performance.now();
  const clock = new ManualClock(0);
  const reader = liveLinesReader(`--input ${sourceId}=-`);
  let executor: Executor;
  let sources: RunSummary['sources'];
  try {
    executor = new Executor(plan, {
      keepChangelog: false,
      inputs,
      readers: { [sourceId]: reader },
      processingTime: 'external',
      clock,
      onSinkOutput: (id, els) => output.changelog(id, els),
      onDeadLetter: output.streamsDeadLetters ? (d) => output.deadLetter(d) : undefined,
    });
    sources = sourceCounter(plan, executor);
  } catch (e) {
    output.close();
    return Promise.reject(e);
  }
  return new Promise<RunSummary>((resolve, reject) => {
    let settled = false;
    let paused = false;
    const stop = () => {
      settled = true;
      clearInterval(timer);
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      stdin.off('error', onError);
      stdin.pause();
    };
    const fail = (e: unknown) => {
      if (settled) return;
      stop();
      output.close();
      reject(e);
    };
    const pump = () => {
      if (settled) return;
      try {
        clock.set(performance.now() - started);
        executor.run();
        if (!output.flush() && !paused) {
          // The reader of our output is behind: stop reading input until it catches up.
          paused = true;
          stdin.pause();
          output.onDrain(() => {
            paused = false;
            if (!settled) stdin.resume();
            pump();
          });
        }
        if (executor.isFinished()) {
          stop();
          resolve(summarize(plan, executor, sources, output, started));
        }
      } catch (e) {
        fail(e);
      }
    };
    const onData = (chunk: string | Buffer) => {
      reader.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      pump();
    };
    const onEnd = () => {
      reader.end();
      pump();
    };
    const onError = (e: Error) => fail(new Error(`reading standard input: ${e.message}`));
    const timer = setInterval(pump, TICK_MS);
    stdin.setEncoding('utf8');
    stdin.on('data', onData);
    stdin.on('end', onEnd);
    stdin.on('error', onError);
    pump();
  });
}
