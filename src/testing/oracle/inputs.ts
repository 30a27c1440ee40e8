// Test-only: seeded, out-of-order inputs and compact pipeline documents for the oracle tests.
import { seededRng } from '../../core/rng.ts';
import type { Rng } from '../../core/rng.ts';
import type { PipelineDocument, PipelineEdge, PipelineNode } from '../../pipeline/document.ts';

export const START = 1_700_000_000_000;

/**
 * `n` distinct event times in arrival order: record i lags its nominal time START + i·stepMs by
 * 0..boundMs. Every earlier record's time is ≤ its own nominal time, so no record ever trails the
 * maximum seen so far by more than boundMs: with maxOutOfOrdernessMs = boundMs nothing is late.
 * Distinct times keep "first"/"last" by event time and interval bounds free of arrival-order ties.
 */
export function disorderedTimes(n: number, rng: Rng, stepMs: number, boundMs: number): number[] {
  const used = new Set<number>();
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const nominal = START + i * stepMs;
    let ts = nominal - rng.int(boundMs + 1);
    // Move to a free time inside [nominal − bound, nominal]; with step ≥ 1 there is always one.
    while (used.has(ts)) ts = ts < nominal ? ts + 1 : nominal - boundMs;
    used.add(ts);
    out.push(ts);
  }
  return out;
}

/** Rows `make(i, rng)` stamped with disordered `ts`, plus `seq` = arrival position. */
export function disorderedRows<R extends Record<string, unknown>>(
  n: number,
  seed: number,
  opts: { stepMs: number; boundMs: number },
  make: (i: number, rng: Rng) => R,
): (R & { seq: number; ts: number })[] {
  const rng = seededRng(seed);
  const times = disorderedTimes(n, rng, opts.stepMs, opts.boundMs);
  return times.map((ts, i) => ({ ...make(i, rng), seq: i, ts }));
}

/** A value, or NULL with probability `p`: SQL NULL handling is part of what the oracle checks. */
export const sometimesNull = <T>(rng: Rng, p: number, value: T): T | null => (rng.next() < p ? null : value);

/** inlineSource params with event time bounded exactly by the disorder of the rows. */
export function inline(rows: readonly Record<string, unknown>[], boundMs: number, schema?: Record<string, string>, ratePerSec?: number): Record<string, unknown> {
  return { rows, ...(schema ? { schema } : {}), eventTime: { field: 'ts', maxOutOfOrdernessMs: boundMs }, ...(ratePerSec ? { ratePerSec } : {}) };
}

type NodeSpec = [id: string, kind: string, params: Record<string, unknown>, parallelism?: number];

/** A document from `[id, kind, params]` nodes and `a -> b` / `a.port -> b.port` edges (ports default to out/in). */
export function pipeline(name: string, nodes: NodeSpec[], edges: string[]): PipelineDocument {
  const ref = (s: string, port: string) => {
    const [node, p] = s.trim().split('.');
    return { node, port: p ?? port };
  };
  return {
    format: 'weir/pipeline',
    version: 1,
    name,
    settings: { seed: 1 },
    nodes: nodes.map(([id, kind, params, parallelism]): PipelineNode => ({ id, kind, params, ...(parallelism ? { parallelism } : {}) })),
    edges: edges.map((e): PipelineEdge => {
      const [from, to] = e.split('->');
      return { from: ref(from, 'out'), to: ref(to, 'in') };
    }),
  };
}
