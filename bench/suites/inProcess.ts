import { runInProcess } from '../../src/runtime/runInProcess.ts';
import { keyedEvents, readyReader, type KeyedEvent } from '../lib/events.ts';
import { keyedCountPlan } from '../lib/keyedCountDoc.ts';
import { interleave, type RunPlan } from '../lib/stats.ts';

/** CPU microseconds (user + system) a run spends per input record: what a record costs, whatever else the machine runs. */
async function cpuMicrosPerRecord(n: number, run: () => unknown): Promise<number> {
  const before = process.cpuUsage();
  await run();
  const d = process.cpuUsage(before);
  return (d.user + d.system) / n;
}

/** The same keyed count on the one runtime as a plain run uses it: in process, one subtask per node, no checkpoints. */
export function inProcessRun(events: readonly KeyedEvent[]): () => unknown {
  return () => {
    const { result } = runInProcess(keyedCountPlan(), { keepChangelog: false, readers: { events: readyReader(events) } });
    if (result.status !== 'finished' || result.views.view.length === 0) throw new Error(`the in-process run ${result.status}: ${result.reason}`);
  };
}

/** inProcess.cpuMicrosPerRecord: CPU per record of the keyed count on the one runtime in process (a plain run). */
export async function inProcessSuite(size: { events: number; keys: number }, plan: RunPlan): Promise<Record<string, number>> {
  const events = keyedEvents(size.events, size.keys);
  const r = await interleave({ inProcess: () => cpuMicrosPerRecord(events.length, inProcessRun(events)) }, plan);
  return { 'inProcess.cpuMicrosPerRecord': r.median.inProcess };
}
