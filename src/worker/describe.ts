import type { JobPlan } from '../pipeline/plan.ts';

/** Names the operator an error came from when its message or stack mentions one. */
export function describeError(e: unknown, plan: JobPlan | null): { message: string; node?: string } {
  const message = e instanceof Error ? e.message : String(e);
  const node = plan?.nodes.find((n) => message.includes(`"${n.id}"`) || message.includes(` ${n.id}:`))?.id;
  const owned = (e as { nodeId?: string } | null)?.nodeId;
  return { message, node: owned ?? node };
}

/** A record as short JSON for the log; never throws on cycles or BigInt. */
export function recordText(v: unknown): string | undefined {
  if (v === undefined) return undefined;
  try {
    const s = typeof v === 'string' ? v : JSON.stringify(v);
    return s.length > 500 ? `${s.slice(0, 500)}…` : s;
  } catch {
    return String(v);
  }
}
