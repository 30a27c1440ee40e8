/** SET statements → the document's settings; a key Weir has no use for is a warning, not an error. */
import type { PipelineSettings } from '../../../pipeline/document.ts';
import type { SqlSpan } from '../../../export/flinkSql/verify/parseTree.ts';
import { fail } from './model.ts';

/** What the SETs of a script decide beyond the settings themselves. */
export interface SettingState {
  /** The script is Weir's own export: its document annotation wins over SETs that only approximate it. */
  annotated: boolean;
  /** table.exec.state.ttl, for joins without a STATE_TTL hint. */
  globalTtlMs: number | null;
  /** table.exec.mini-batch.enabled: every GROUP BY folds its input batch by batch. */
  miniBatch?: boolean;
  name?: string;
  warn(at: SqlSpan, message: string): void;
}

/** A Flink duration setting such as `1000 ms`, `5 s`, `10 min`, `1 h`, `2 d`, in ms. */
export function durationMs(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|milli|millis|millisecond|milliseconds|s|sec|secs|second|seconds|min|minute|minutes|h|hour|hours|d|day|days)?\s*$/i.exec(text);
  if (!m) return null;
  const u = (m[2] ?? 'ms').toLowerCase();
  const f = u.startsWith('ms') || u.startsWith('milli') ? 1 : u.startsWith('s') ? 1000 : u.startsWith('min') ? 60_000 : u.startsWith('h') ? 3_600_000 : 86_400_000;
  return Math.round(Number(m[1]) * f);
}

export function applySetting(key: string, value: string, at: SqlSpan, settings: PipelineSettings, st: SettingState): void {
  const ms = () => durationMs(value) ?? fail(at, `SET '${key}'`, `expected a duration such as '1000 ms', found '${value}'`);
  const int = () => (/^\d+$/.test(value) ? Number(value) : fail(at, `SET '${key}'`, `expected a whole number, found '${value}'`));
  // Without an interval SET the export's pipeline checkpoints manually only (Flink then takes none).
  const checkpoint = (settings.checkpoint ??= { intervalMs: null });
  switch (key) {
    case 'pipeline.name':
      st.name = value;
      return;
    case 'execution.checkpointing.interval':
      checkpoint.intervalMs = ms();
      return;
    case 'execution.checkpointing.timeout':
      checkpoint.timeoutMs = ms();
      return;
    case 'state.checkpoints.num-retained':
      checkpoint.retain = int();
      return;
    case 'state.backend.incremental':
      if (value === 'true') checkpoint.incremental = true;
      return;
    case 'state.backend.type':
      if (!st.annotated) settings.stateBackend = value === 'rocksdb' ? 'indexeddb' : 'memory';
      return;
    case 'parallelism.default':
      settings.parallelism = int();
      return;
    case 'pipeline.max-parallelism':
      settings.maxParallelism = int();
      return;
    case 'table.exec.state.ttl':
      st.globalTtlMs = ms();
      return;
    case 'table.exec.source.idle-timeout':
      // With the export's annotations, sources carry their own timeouts and the document's is annotated.
      if (!st.annotated) settings.idleTimeoutMs = ms();
      return;
    case 'table.exec.mini-batch.enabled':
      st.miniBatch = value.toLowerCase() === 'true';
      return;
    case 'table.exec.mini-batch.allow-latency':
    case 'table.exec.mini-batch.size':
      // Weir's mini-batch is the input batch the task hands over; Flink's bounds only tune how long it waits.
      if (!st.annotated) st.warn(at, `SET '${key}': Weir folds each input batch of a GROUP BY as one mini-batch, whatever its latency and size bounds`);
      return;
    case 'execution.runtime-mode':
    case 'table.local-time-zone':
      if (value !== (key === 'execution.runtime-mode' ? 'streaming' : 'UTC')) st.warn(at, `SET '${key}' = '${value}' differs from Weir's semantics (streaming, UTC)`);
      return;
    default:
      st.warn(at, `SET '${key}' has no Weir equivalent and is ignored`);
  }
}
