import type { Row } from '../core/types.ts';
import type { RowMemo } from '../core/source.ts';
import { markShared } from '../core/sharedRows.ts';

/** Rows kept at most, across every source: a long run keeps its first rows, then makes the rest as before. */
const LIMIT = 200_000;

/**
 * The rows the sources of one loaded job made, per source node and record index, for the
 * replays of its history (stepping back deploys the job again and replays it from the start):
 * a replay takes each row as the pass before made it instead of making it again, and so do the
 * join buffers that key rows by their content (one object, one id). Dropped with the job.
 */
export class SourceRows {
  private readonly byNode = new Map<string, (Row | null)[]>();
  private kept = 0;

  constructor(private readonly limit = LIMIT) {}

  /** The memo of one source node; its subtasks share it (each keeps its own indexes of one stream). */
  of(node: string): RowMemo {
    let rows = this.byNode.get(node);
    if (!rows) this.byNode.set(node, (rows = []));
    const list = rows;
    return {
      get: (i) => list[i],
      keep: (i, row) => {
        if (this.kept >= this.limit || list[i] !== undefined) return;
        list[i] = row;
        if (row) markShared(row);
        this.kept++;
      },
    };
  }

  /** Rows held now. */
  size(): number {
    return this.kept;
  }
}
