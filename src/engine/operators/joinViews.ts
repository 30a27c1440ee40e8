import type { Row } from '../../core/types.ts';
import { keySelector } from '../../core/keys.ts';
import type { KeyedStateBackend } from '../../state/backend.ts';
import { mapState, valueState } from '../../state/descriptors.ts';
import type { MapKey, MapState, TtlConfig, ValueState } from '../../state/descriptors.ts';
import { rowId } from '../../pipeline/kinds/joinColumns.ts';

/** One distinct row of one side under one join key. */
export interface Buffered {
  row: Row;
  /** Event time of the latest copy. */
  ts: number | null;
  /** Copies currently held (a multiset, as retractions remove one copy). */
  count: number;
  /**
   * Rows on the other side this row joins with. It decides padding, so it is kept up to date
   * only on outer sides, as in Flink's OuterJoinRecordStateView.
   */
  matches: number;
}

/**
 * How one side holds its rows under the current join key, chosen by the side's unique key as
 * Flink's JoinRecordStateViews: `key` when the join key contains the unique key (at most one row
 * per join key: a value state, no map and no row id), `unique` when the side has a unique key (a
 * map by that key, cheaper than a row id), else `rows` (a map by the whole row's id). While an
 * input honours its unique key, the three hold the same rows with the same counts.
 */
export type JoinViewKind = 'key' | 'unique' | 'rows';

export interface JoinSideView {
  readonly kind: JoinViewKind;
  /** The states that may hold this side's join keys: the view's own, then the old layout it adopts from. */
  readonly stateNames: readonly string[];
  /** The id a row is held under in this view. */
  idOf(row: Row): MapKey;
  get(id: MapKey): Buffered | undefined;
  put(id: MapKey, b: Buffered): void;
  remove(id: MapKey): void;
  entries(): [MapKey, Buffered][];
}

export function joinViewKind(joinKey: readonly string[], uniqueKey: readonly string[] | null | undefined): JoinViewKind {
  if (!uniqueKey) return 'rows';
  return uniqueKey.every((f) => joinKey.includes(f)) ? 'key' : 'unique';
}

/**
 * The side's view. Checkpoints taken before the views existed hold every side as `rows` (state
 * `join.<side>`); a `key` or `unique` view moves a join key's rows from there into itself the
 * first time it finds that key empty, so such checkpoints restore on both backends.
 */
export function joinSideView(state: KeyedStateBackend, side: string, joinKey: readonly string[], uniqueKey: readonly string[] | null | undefined, ttl: TtlConfig | undefined): JoinSideView {
  const kind = joinViewKind(joinKey, uniqueKey);
  const rows = state.map(mapState<MapKey, Buffered>(`join.${side}`, ttl));
  if (kind === 'rows') return mapView('rows', [`join.${side}`], rows, rowId);
  const legacy = (put: (b: Buffered) => void): boolean => {
    if (rows.isEmpty()) return false;
    for (const [, b] of rows.entries()) put(b);
    rows.clear();
    return true;
  };
  if (kind === 'unique') {
    const name = `join.${side}.byUnique`;
    const byUnique = state.map(mapState<MapKey, Buffered>(name, ttl));
    const idOf = uniqueIdOf(uniqueKey!);
    const view = mapView('unique', [name, `join.${side}`], byUnique, idOf);
    const adopt = (): boolean => byUnique.isEmpty() && legacy((b) => putMerged(byUnique, idOf(b.row), b));
    return {
      ...view,
      get: (id) => byUnique.get(id) ?? (adopt() ? byUnique.get(id) : undefined),
      entries: () => {
        const out = view.entries();
        return out.length > 0 || !adopt() ? out : view.entries();
      },
    };
  }
  const name = `join.${side}.byKey`;
  const byKey = state.value(valueState<Buffered>(name, ttl));
  const read = (): Buffered | undefined => byKey.value() ?? (legacy((b) => mergeInto(byKey, b)) ? byKey.value() : undefined);
  return {
    kind,
    stateNames: [name, `join.${side}`],
    idOf: () => 0,
    get: read,
    put: (_id, b) => byKey.update(b),
    remove: () => byKey.clear(),
    entries: () => {
      const b = read();
      return b ? [[0, b]] : [];
    },
  };
}

/** A map key for the unique key's values: several fields as their JSON array; one as itself, a string quoted so that NULL ('null') stays apart. */
function uniqueIdOf(uniqueKey: readonly string[]): (row: Row) => MapKey {
  const sel = keySelector(uniqueKey);
  if (uniqueKey.length > 1) return sel as (row: Row) => string;
  return (row) => {
    const k = sel(row);
    return k === null ? 'null' : typeof k === 'string' ? JSON.stringify(k) : k;
  };
}

function mapView(kind: JoinViewKind, stateNames: readonly string[], m: MapState<MapKey, Buffered>, idOf: (row: Row) => MapKey): JoinSideView {
  return {
    kind,
    stateNames,
    idOf,
    get: (id) => m.get(id),
    put: (id, b) => m.put(id, b),
    remove: (id) => m.remove(id),
    entries: () => m.entries(),
  };
}

/** A row of the old layout lands where an equal unique key already is only if the input broke its key: keep the copies. */
function putMerged(m: MapState<MapKey, Buffered>, id: MapKey, b: Buffered): void {
  const had = m.get(id);
  m.put(id, had ? merged(had, b) : b);
}

function mergeInto(v: ValueState<Buffered>, b: Buffered): void {
  const had = v.value();
  v.update(had ? merged(had, b) : b);
}

const merged = (had: Buffered, b: Buffered): Buffered => ({
  row: had.row,
  ts: had.ts === null ? b.ts : b.ts === null ? had.ts : Math.max(had.ts, b.ts),
  count: had.count + b.count,
  matches: had.matches,
});
