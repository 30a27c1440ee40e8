import type { CheckpointStore } from '../../checkpoint/types.ts';
import { parseSubtaskId } from '../../checkpoint/types.ts';
import { inlineKeyed } from '../../checkpoint/savepoint.ts';
import type { KeyedHandleReader } from '../../checkpoint/savepoint.ts';
import type { SnapshotCell } from '../../state/backend.ts';
import type { Key } from '../../core/types.ts';
import type { StateDiff, StateRow } from './types.ts';

interface KeyStates {
  key: Key;
  subtask: number;
  states: Record<string, unknown>;
}

/** Node → key text → that key's decoded states, from one retained checkpoint. */
async function readCheckpoint(store: CheckpointStore, jobId: string, checkpointId: number, readChunks?: KeyedHandleReader): Promise<Map<string, Map<string, KeyStates>>> {
  const manifest = (await store.list(jobId)).find((m) => m.checkpointId === checkpointId);
  if (!manifest) throw new Error(`diff: checkpoint ${checkpointId} is not retained (job "${jobId}"); pick two checkpoints from the history that are still retained`);
  const nodes = new Map<string, Map<string, KeyStates>>();
  for (const ref of Object.values(manifest.subtasks)) {
    const snap = await store.readSubtask(ref);
    if (snap.source) continue;
    const { node, index } = parseSubtaskId(snap.subtask);
    let keys = nodes.get(node);
    if (!keys) nodes.set(node, (keys = new Map()));
    const keyed = await inlineKeyed(snap, readChunks);
    for (const cells of Object.values(keyed.keyGroups)) {
      for (const cell of cells) {
        const text = JSON.stringify(cell.key);
        let k = keys.get(text);
        if (!k) keys.set(text, (k = { key: cell.key, subtask: index, states: {} }));
        k.states[cell.state] = decode(cell);
      }
    }
  }
  return nodes;
}

/** Snapshot cells hold lists as [value, touched] pairs and maps as [key, value, touched] triples. */
function decode(cell: SnapshotCell): unknown {
  if (cell.kind === 'list') return (cell.value as [unknown, number][]).map(([v]) => v);
  if (cell.kind === 'map') return Object.fromEntries((cell.value as [unknown, unknown, number][]).map(([k, v]) => [String(k), v]));
  return cell.value;
}

const asRow = (k: KeyStates): StateRow => ({ key: k.key, keyText: JSON.stringify(k.key), states: k.states, ttlMs: {}, updatedAt: null, subtask: k.subtask, changed: false });

/** Keys added, removed and changed per operator between two retained checkpoints. */
export async function diffCheckpoints(store: CheckpointStore, jobId: string, from: number, to: number, readChunks?: KeyedHandleReader): Promise<StateDiff> {
  const [a, b] = await Promise.all([readCheckpoint(store, jobId, from, readChunks), readCheckpoint(store, jobId, to, readChunks)]);
  const operators: StateDiff['operators'] = [];
  for (const node of [...new Set([...a.keys(), ...b.keys()])].sort()) {
    const before = a.get(node) ?? new Map<string, KeyStates>();
    const after = b.get(node) ?? new Map<string, KeyStates>();
    const added: StateRow[] = [];
    const removed: StateRow[] = [];
    const changed: StateDiff['operators'][number]['changed'] = [];
    for (const [text, k] of after) {
      const old = before.get(text);
      if (!old) added.push(asRow(k));
      else if (stableJson(old.states) !== stableJson(k.states)) changed.push({ key: k.key, before: old.states, after: k.states });
    }
    for (const [text, k] of before) if (!after.has(text)) removed.push(asRow(k));
    if (added.length || removed.length || changed.length) operators.push({ node, added, removed, changed });
  }
  return { from, to, operators };
}

/** JSON with object keys sorted, so map states written in another order still compare equal. */
function stableJson(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x));
}
