import { keyedEvents } from '../lib/events.ts';
import { interleave, type RunPlan } from '../lib/stats.ts';
import { runEngine } from './keyedCount.ts';

export const SCALING_KEYS: Record<string, number> = { keys1k: 1_000, keys10k: 10_000, keys100k: 100_000, keys1M: 1_000_000 };

/** scaling.eventsPerSec.*: the keyed count at growing key counts, the same number of events each (at least one per key). */
export async function scalingSuite(events: number, plan: RunPlan, keys: Record<string, number> = SCALING_KEYS): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [name, k] of Object.entries(keys)) {
    const ev = keyedEvents(Math.max(events, k), k);
    const r = await interleave({ [name]: () => runEngine(ev).eps }, plan);
    out[`scaling.eventsPerSec.${name}`] = r.median[name];
  }
  return out;
}
