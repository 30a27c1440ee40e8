// The keyed cells of the keyed count's GROUP BY after `events` events over `keys` keys, as a checkpoint hands them to
// the threaded runtime's commitWire (bench/profile/packRowsAb.ts packs them).
import type { SnapshotCell } from '../../src/state/backend.ts';
import { keyedEvents } from './events.ts';
import { keyedCountPlan } from './keyedCountDoc.ts';
import { nodeTask, throughChain } from './nodeTasks.ts';

export function keyedCountCells(events: number, keys: number): SnapshotCell[] {
  const task = nodeTask(keyedCountPlan(false), 'totals');
  const rows = keyedEvents(events, keys);
  for (let at = 0; at < rows.length; at += 1024) throughChain([task], rows.slice(at, at + 1024).map((row) => ({ kind: '+I' as const, row: { ...row }, ts: null })));
  return Object.values(task.snapshot().keyed.keyGroups).flat();
}
