import { compileExpr } from '../../expr/index.ts';
import type { CompiledExpr } from '../../expr/index.ts';
import type { Element, Row } from '../../core/types.ts';
import type { Breakpoint } from './types.ts';

/** Breakpoints compiled once; the recorder checks records that reach a breakpoint node. */
export class BreakpointSet {
  private readonly byNode = new Map<string, (CompiledExpr | null)[]>();
  private pending: { node: string; row: Row } | null = null;

  /** Replaces every breakpoint; returns one problem per bad breakpoint (those are not armed). */
  set(bps: readonly Breakpoint[], nodes: ReadonlySet<string>): { node: string; message: string }[] {
    this.byNode.clear();
    this.pending = null;
    const problems: { node: string; message: string }[] = [];
    for (const bp of bps) {
      if (!nodes.has(bp.node)) {
        problems.push({ node: bp.node, message: `breakpoint on "${bp.node}": no such node in the running job; pick a node of the pipeline` });
        continue;
      }
      let cond: CompiledExpr | null = null;
      const text = bp.condition?.trim();
      if (text) {
        try {
          cond = compileExpr(text);
        } catch (e) {
          problems.push({ node: bp.node, message: `breakpoint condition on "${bp.node}" does not compile: ${(e as Error).message}; fix the expression or clear it to break on every record` });
          continue;
        }
      }
      this.byNode.set(bp.node, [...(this.byNode.get(bp.node) ?? []), cond]);
    }
    return problems;
  }

  armed(node: string): boolean {
    return this.byNode.has(node);
  }

  /** Records that reached `node`; the first one whose condition holds becomes the pending hit. */
  check(node: string, els: readonly Element[]): void {
    const conds = this.byNode.get(node);
    if (!conds || this.pending) return;
    for (const el of els) {
      if (conds.some((c) => c === null || holds(c, el.row))) {
        this.pending = { node, row: el.row };
        return;
      }
    }
  }

  /** The hit since the previous call, once. */
  take(): { node: string; row: Row } | null {
    const h = this.pending;
    this.pending = null;
    return h;
  }

  peek(): { node: string; row: Row } | null {
    return this.pending;
  }
}

function holds(c: CompiledExpr, row: Row): boolean {
  try {
    return c.evaluate(row) === true;
  } catch {
    // A row the condition cannot evaluate (missing field, wrong type) does not stop the job.
    return false;
  }
}
