import type { Row } from '../../core/types.ts';
import type { RankFunction } from '../../pipeline/kinds/topN.ts';

/**
 * The ranks of the leading rows of a sorted partition that rank within n: ROW_NUMBER counts rows,
 * RANK gives ties the same rank and skips the ranks they take, DENSE_RANK gives ties the same rank
 * and skips none. The array's length is how many rows are in the top n.
 */
export function topRanks(list: readonly Row[], n: number, fn: RankFunction, cmp: (a: Row, b: Row) => number): number[] {
  const ranks: number[] = [];
  for (let i = 0; i < list.length; i++) {
    let r = i + 1;
    if (fn !== 'rowNumber' && i > 0 && cmp(list[i], list[i - 1]) === 0) r = ranks[i - 1];
    else if (fn === 'denseRank' && i > 0) r = ranks[i - 1] + 1;
    if (r > n) break;
    ranks.push(r);
  }
  return ranks;
}
