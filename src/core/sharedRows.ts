/**
 * Content ids of rows that the passes of one run share (a replay of its history reads the rows
 * its sources made before: runtime/sourceRows.ts). Such a row is the same object on every pass,
 * so the id made from its content on one pass serves the next: rows are not changed once a
 * source task typed them. Rows not shared are not kept here, so a run that is not replayed pays
 * one failed lookup per id.
 */
const ids = new WeakMap<object, string | null>();

/** `row` is handed to more than one pass of a run. */
export function markShared(row: object): void {
  if (!ids.has(row)) ids.set(row, null);
}

/** `make(row)`, made once per shared row. */
export function sharedId<R extends object>(row: R, make: (row: R) => string): string {
  const id = ids.get(row);
  if (id === undefined) return make(row);
  if (id !== null) return id;
  const made = make(row);
  ids.set(row, made);
  return made;
}
