/** SET statements: checkpointing, state backend, parallelism, state TTL, time zone. */
import type { ExportContext } from './context.ts';
import { durationText, str } from './sqlText.ts';

/** Operators whose SQL state grows without a watermark to clean it: they are what table.exec.state.ttl affects. */
const UNBOUNDED_STATE = new Set(['join', 'aggregate', 'topN', 'dedup']);

const set = (key: string, value: string): string => `SET ${str(key)} = ${str(value)};`;

/**
 * table.exec.state.ttl is global in Flink. It is set from the joins' ttlMs only when every operator
 * it would affect is a join with that same TTL; otherwise each join carries a STATE_TTL hint instead.
 */
export function globalStateTtl(cx: ExportContext): { ttlMs: number | null; reason: string | null } {
  if (cx.options.stateTtlMs !== undefined) return { ttlMs: cx.options.stateTtlMs, reason: null };
  const affected = cx.plan.nodes.filter((n) => UNBOUNDED_STATE.has(n.kind));
  const joinTtls = affected.filter((n) => n.kind === 'join' && typeof n.params.ttlMs === 'number').map((n) => n.params.ttlMs as number);
  if (!joinTtls.length) return { ttlMs: null, reason: null };
  const uniform = new Set(joinTtls).size === 1 && joinTtls.length === affected.length;
  if (uniform) return { ttlMs: joinTtls[0], reason: null };
  return { ttlMs: null, reason: 'not set globally: it would also expire the state of operators that keep theirs forever in Weir; the joins carry STATE_TTL hints' };
}

export function settingStatements(cx: ExportContext): string[] {
  const s = cx.plan.doc.settings ?? {};
  const out: string[] = [];
  out.push(set('pipeline.name', cx.plan.doc.name));
  out.push(set('execution.runtime-mode', 'streaming'));
  const interval = cx.options.checkpointIntervalMs ?? s.checkpoint?.intervalMs ?? null;
  if (interval !== null) out.push(set('execution.checkpointing.interval', durationText(interval)));
  else out.push('-- checkpoints are manual in this pipeline: no execution.checkpointing.interval (Flink then takes none)');
  if (s.checkpoint?.timeoutMs !== undefined) out.push(set('execution.checkpointing.timeout', durationText(s.checkpoint.timeoutMs)));
  if (s.checkpoint?.retain !== undefined) out.push(set('state.checkpoints.num-retained', String(s.checkpoint.retain)));
  const backend = cx.options.stateBackend ?? (s.stateBackend === 'indexeddb' ? 'rocksdb' : 'hashmap');
  out.push(set('state.backend.type', backend));
  const incremental = cx.options.incremental ?? s.checkpoint?.incremental ?? backend === 'rocksdb';
  out.push(set('state.backend.incremental', String(incremental)));
  out.push(set('parallelism.default', String(cx.options.parallelism ?? s.parallelism ?? 1)));
  if (s.maxParallelism !== undefined) out.push(set('pipeline.max-parallelism', String(s.maxParallelism)));
  const ttl = globalStateTtl(cx);
  if (ttl.ttlMs !== null) out.push(set('table.exec.state.ttl', durationText(ttl.ttlMs)));
  else if (ttl.reason) out.push(`-- table.exec.state.ttl: ${ttl.reason}`);
  const idle = s.idleTimeoutMs ?? sourceIdleTimeout(cx);
  if (idle !== undefined) out.push(set('table.exec.source.idle-timeout', durationText(idle)));
  const groupBys = cx.plan.nodes.filter((n) => n.kind === 'aggregate');
  const folded = groupBys.filter((n) => n.params.miniBatch === true);
  if (folded.length) {
    // Flink requires both bounds when mini-batch is on; Weir folds each input batch, which these bound from above.
    out.push(set('table.exec.mini-batch.enabled', 'true'), set('table.exec.mini-batch.allow-latency', '1 s'), set('table.exec.mini-batch.size', '1000'));
    for (const n of groupBys) if (!n.params.miniBatch) cx.warn(n.id, `mini-batch is one setting for the whole job in Flink: this GROUP BY folds its input too, as ${folded[0].id} does`);
  }
  out.push('-- Weir aligns windows to UTC epoch milliseconds; so does Flink in the UTC session time zone');
  out.push(set('table.local-time-zone', 'UTC'));
  for (const n of cx.plan.nodes) {
    if (n.parallelism !== (cx.options.parallelism ?? s.parallelism ?? 1) && cx.plan.doc.nodes.find((d) => d.id === n.id)?.parallelism !== undefined) {
      cx.warn(n.id, `parallelism ${n.parallelism} is not carried over: Flink SQL runs every operator at parallelism.default`);
    }
  }
  return out;
}

/** Flink has one idle timeout for all sources: the smallest one a source declares. */
function sourceIdleTimeout(cx: ExportContext): number | undefined {
  const all = cx.plan.nodes
    .filter((n) => n.isSource)
    .map((n) => (n.params.eventTime as { idleTimeoutMs?: number } | undefined)?.idleTimeoutMs)
    .filter((v): v is number => typeof v === 'number');
  return all.length ? Math.min(...all) : undefined;
}
