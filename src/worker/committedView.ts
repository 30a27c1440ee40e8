import type { Element, Row } from '../core/types.ts';
import { isAddition } from '../core/types.ts';
import { compareRows } from '../engine/operators/changelogTable.ts';

/**
 * A sink's table as the job has committed it: fed only by published (checkpoint-completed)
 * output, so the Results tab never shows rows a failure would take back (exactly-once).
 * Upserts by primary key when the sink has one, otherwise a multiset of whole rows.
 */
export class CommittedView {
  private readonly rowsByKey = new Map<string, { row: Row; n: number }>();
  private sorted: Row[] | null = [];

  constructor(private readonly primaryKey: string[] | null) {}

  private keyOf(row: Row): string {
    const pk = this.primaryKey;
    // One key field: the text JSON gives the one-element array, without making the array.
    if (pk?.length === 1) return `[${JSON.stringify(row[pk[0]] ?? null) ?? 'null'}]`;
    return JSON.stringify(pk ? pk.map((f) => row[f] ?? null) : row);
  }

  apply(els: readonly Element[]): void {
    for (const el of els) {
      const k = this.keyOf(el.row);
      const cur = this.rowsByKey.get(k);
      if (this.primaryKey) {
        if (isAddition(el.kind)) this.rowsByKey.set(k, { row: el.row, n: 1 });
        else this.rowsByKey.delete(k);
      } else {
        // Parallel sink subtasks publish in epochs, so a retraction can land before its row: keep the debt.
        const n = (cur?.n ?? 0) + (isAddition(el.kind) ? 1 : -1);
        if (n === 0) this.rowsByKey.delete(k);
        else this.rowsByKey.set(k, { row: cur?.row ?? el.row, n });
      }
    }
    if (els.length) this.sorted = null;
  }

  /** After a restore the committed table is exactly the restored sink state. */
  reset(rows: readonly Row[]): void {
    this.rowsByKey.clear();
    this.sorted = null;
    this.apply(rows.map((row) => ({ kind: '+I' as const, row, ts: null })));
  }

  /** Sorted as the sink orders its table (primary key, else all fields). */
  rows(): Row[] {
    if (!this.sorted) {
      const out: Row[] = [];
      for (const { row, n } of this.rowsByKey.values()) for (let i = 0; i < n; i++) out.push(row);
      const pk = this.primaryKey;
      this.sorted = out.sort((a, b) => compareRows(a, b, pk ?? Object.keys(a)));
    }
    return this.sorted;
  }
}
