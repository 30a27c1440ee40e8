import { performance } from 'node:perf_hooks';
import type { LocalCluster } from '../runtime/localCluster.ts';
import { inProcessCluster } from '../runtime/runInProcess.ts';
import { liveLinesReader } from '../core/source.ts';
import type { SourceReader } from '../core/source.ts';
import type { JobPlan } from '../pipeline/plan.ts';
import type { LiveFeeds } from '../runtime/feeds/liveFeeds.ts';
import type { RunInputs } from './inputs.ts';
import type { RunOutput } from './runOutput.ts';
import type { RunSummary } from './run.ts';
import { cliRunOptions, summarize } from './run.ts';

/** How often a live run wakes without input: processing-time timers and idle sources need it. */
const TICK_MS = 50;

/** What a live run reads: standard input for one source, live feeds for others (or both). */
export interface LiveInputs {
  stdin?: { sourceId: string; stream: NodeJS.ReadableStream };
  /** Connected by the caller's factory once the job is deployed; each one's readers are the sources'. */
  feeds?: LiveFeeds;
}

/**
 * Runs a job on live inputs: every chunk of standard input and every feed message is pushed
 * through the pipeline as it arrives and the output is flushed after it, so results appear while
 * the input is still open. Processing time is wall-clock time since the start. At the end of the
 * input (standard input closed, every feed closed for good) the sources end (watermark +∞) and
 * whatever waits on the watermark fires.
 */
export function executeLive(plan: JobPlan, inputs: RunInputs, live: LiveInputs, output: RunOutput): Promise<RunSummary> {
  const started = performance.now();
  const stdin = live.stdin?.stream;
  const reader = live.stdin ? liveLinesReader(`--input ${live.stdin.sourceId}=-`) : null;
  const readers: Record<string, SourceReader> = { ...live.feeds?.readers };
  if (reader && live.stdin) readers[live.stdin.sourceId] = reader;
  let cluster: LocalCluster;
  try {
    cluster = inProcessCluster(plan, { ...cliRunOptions(inputs, output), readers, schedule: 'live' });
    cluster.runSync();
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
      if (live.feeds) live.feeds.onMessage = null;
      live.feeds?.stop('the run ended');
      if (!stdin) return;
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
        cluster.clock.set(performance.now() - started);
        cluster.runUntilIdle();
        if (!output.flush() && !paused) {
          // The reader of our output is behind: stop reading input until it catches up.
          paused = true;
          stdin?.pause();
          output.onDrain(() => {
            paused = false;
            if (!settled) stdin?.resume();
            pump();
          });
        }
        if (cluster.isFinished()) {
          stop();
          resolve(summarize(plan, cluster, output, started));
        }
      } catch (e) {
        fail(e);
      }
    };
    const onData = (chunk: string | Buffer) => {
      reader!.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      pump();
    };
    const onEnd = () => {
      reader!.end();
      pump();
    };
    const onError = (e: Error) => fail(new Error(`reading standard input: ${e.message}`));
    const timer = setInterval(pump, TICK_MS);
    if (live.feeds) {
      // A burst of messages is pumped once, after the burst, not once per message.
      let queued = false;
      live.feeds.onMessage = () => {
        if (queued) return;
        queued = true;
        queueMicrotask(() => {
          queued = false;
          pump();
        });
      };
      live.feeds.start();
    }
    if (stdin) {
      stdin.setEncoding('utf8');
      stdin.on('data', onData);
      stdin.on('end', onEnd);
      stdin.on('error', onError);
    }
    pump();
  });
}
