import { SourceTask } from '../engine/sourceTask.ts';
import { derivedSeed } from '../core/rng.ts';
import { sourceDefinition } from '../engine/registry.ts';
import type { SubtaskSnapshot } from '../checkpoint/types.ts';
import { splitReader, type SplitReader, type SplitSourceSnapshot } from './sourceSplit.ts';
import { InjectingReader, type InjectionLog } from './injectionLog.ts';
import { SourceIdleness } from './sourceIdleness.ts';
import type { RunnerDeps } from './runnerHost.ts';
import type { CommonSourceParams, SourceReader } from '../core/source.ts';
import { jobOrigins, type Origins } from '../engine/origins.ts';

/** The job's source lines (null when its records carry none: no user code), with every source's file name. */
export function originsOf(deps: RunnerDeps): Origins | null {
  return jobOrigins(deps.plan, () => deps.inputNames ?? Object.fromEntries(Object.entries(deps.inputs ?? {}).flatMap(([id, input]) => (input ? [[id, input.name]] : []))));
}

/** What every subtask's snapshot starts with. */
export type SnapshotBase = Pick<SubtaskSnapshot, 'subtask' | 'parallelism' | 'finished' | 'deadLetterEpochs' | 'derivedFrom'>;

/**
 * What a source subtask reads, in layers: the source's own reader (or one given to it, such as
 * a live feed), the split of it this subtask owns (sourceSplit.ts), and for subtask 0 the
 * records injected from the designer (injectionLog.ts), all under the SourceTask that types
 * them and makes watermarks. It also owns what of that a checkpoint keeps and a restore takes
 * back: the split's offset and levels, the injection log's position and a live reader's
 * carried messages. The SubtaskRunner only drives it.
 */
export class SourceInput {
  readonly task: SourceTask;
  /** A source's time between two records at its rate, in simulated processing time (ms). */
  readonly recordIntervalMs: number;
  readonly idleness: SourceIdleness | null = null;
  private readonly split: SplitReader;
  private readonly injecting: InjectingReader | null = null;
  private readonly injections: InjectionLog | null;
  /** The source's own reader, under split and injection: a live one keeps messages for replay. */
  private readonly reader: SourceReader;
  /** A live reader's offset at each checkpoint this subtask snapshotted and that has not completed yet. */
  private readonly readerOffsets = new Map<number, number>();

  constructor(deps: RunnerDeps, announceIdle: (idle: boolean) => void) {
    const { plan, node, index, host } = deps;
    const def = sourceDefinition(node.kind);
    const given = deps.readers?.[node.id];
    // Subtasks sharing one reader would each take the records the others skip: all but 1/p lost.
    if (typeof given === 'object' && node.parallelism > 1) throw new Error(`source "${node.id}" runs at parallelism ${node.parallelism} but is given one reader (a live feed or standard input), which only one subtask can read: set its parallelism to 1 (the operators after it can still run in parallel)`);
    const reader = (typeof given === 'function' ? given(index) : given) ?? def.open(node.params, { seed: derivedSeed(plan.seed, node.id), input: deps.inputs?.[node.id], ownsParams: deps.ownsPlan, rows: deps.sourceRows?.of(node.id) });
    const params: CommonSourceParams = def.taskParams?.(node.params) ?? (node.params as CommonSourceParams);
    this.reader = reader;
    this.split = splitReader(reader, index, node.parallelism);
    this.injections = deps.injections ?? null;
    if (index === 0 && deps.injections) this.injecting = new InjectingReader(this.split, deps.injections.of(node.id));
    this.task = new SourceTask(node.id, this.injecting ?? this.split, params, originsOf(deps)?.slotOf(node.id));
    this.recordIntervalMs = 1000 / (params.ratePerSec ?? plan.doc.settings?.defaultRatePerSec ?? 1000);
    const timeoutMs = params.eventTime?.idleTimeoutMs ?? plan.doc.settings?.idleTimeoutMs;
    if (timeoutMs !== undefined) this.idleness = new SourceIdleness(timeoutMs, host.clock, announceIdle);
  }

  /** A live source with nothing received yet (and no injected record to read) waits for its input. */
  waitsForInput(): boolean {
    return this.reader.waiting?.() === true && !this.injecting?.pending().length;
  }

  /** Entries of the injection log this source subtask has read (counted with its records). */
  injectedRead(): number {
    return this.injecting?.injected ?? 0;
  }

  /** The source subtask's snapshot: no operator state, the watermark it emitted, the records it sent and its position. */
  subtaskSnapshot(base: SnapshotBase, checkpointId: number, recordsEmitted: number): SubtaskSnapshot {
    const records = { in: 0, out: recordsEmitted };
    return { ...base, keyed: { type: 'inline', snapshot: { maxParallelism: 0, keyGroups: {} } }, operator: { lists: {}, broadcast: {} }, timers: [], watermark: this.task.watermark(), counters: {}, records, source: this.snapshot(checkpointId) };
  }

  private snapshot(checkpointId: number): SplitSourceSnapshot {
    let s = this.split.snapshot(this.task.snapshot());
    if (this.reader.checkpointCompleted) this.readerOffsets.set(checkpointId, s.offset);
    if (this.reader.carry) s = { ...s, carried: this.reader.carry() };
    if (!this.injecting) return s;
    const pending = this.injecting.pending();
    return { ...s, ...(this.injecting.injected ? { injected: this.injecting.injected } : {}), ...(pending.length ? { injectedPending: pending } : {}) };
  }

  /** Checkpoint `id` completed: a live reader may free what lies before the offset it snapshotted. */
  checkpointCompleted(id: number): void {
    const offset = this.readerOffsets.get(id);
    if (offset !== undefined) {
      for (const k of [...this.readerOffsets.keys()]) if (k <= id) this.readerOffsets.delete(k);
      this.reader.checkpointCompleted!(offset);
    }
  }

  /**
   * An attempt that restores no checkpoint starts from the beginning. A live feed's reader outlives
   * attempts, so it is taken back to its first message, as a freshly opened reader would start.
   */
  startFresh(): void {
    if (this.reader.checkpointCompleted) this.reader.seek(0);
  }

  /** Restores subtask `subtask` of source `node` from the snapshots of every old subtask of it. */
  restore(snaps: readonly SubtaskSnapshot[], subtask: string, node: string): void {
    // A live reader first takes back the unread messages a checkpoint of another process carried.
    const own = snaps.find((x) => x.source && x.subtask === subtask)?.source as SplitSourceSnapshot | undefined;
    if (this.reader.adopt && own?.carried !== undefined) this.reader.adopt(own.offset, own.carried);
    // A changed parallelism redistributes the old splits' remaining records (see sourceSplit.ts).
    this.task.restore(this.split.restore(snaps, node));
    // The injection log is read by subtask 0 at every parallelism, so its position is old subtask 0's.
    const first = snaps.find((x) => x.source && x.subtask.endsWith('#0'))?.source as SplitSourceSnapshot | undefined;
    if (this.injecting) {
      this.injecting.injected = first?.injected ?? 0;
      this.injections?.adopt(node, this.injecting.injected, first?.injectedPending ?? []);
    }
  }
}
