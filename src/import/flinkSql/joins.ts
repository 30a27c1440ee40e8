/** Regular, interval and temporal joins, and the LATERAL TABLE calls that stand for ported code. */
import { renameRight } from '../../engine/operators/joins/columns.ts';
import type { Span } from './cursor.ts';
import type { FromItem, Select } from './query.ts';
import type { Annotation, ImportContext, ImportedNode, Relation } from './context.ts';
import { fail, itemName } from './context.ts';
import { call, columnPlusInterval, durationMs, plainColumn, qualifiedColumn, split, weirExpr } from './exprs.ts';

type TableFrom = Extract<FromItem, { kind: 'table' }>;

function side(cx: ImportContext, f: FromItem, construct: string): { from: TableFrom; rel: Relation; alias: string } {
  if (f.kind !== 'table') fail(f.tok, construct, 'each side of a join must be a table or view with an alias');
  return { from: f, rel: cx.relation(f.name, f.tok, construct), alias: f.alias ?? f.name };
}

/** The select list must be every left column, then every right column renamed as the engine does. */
function checkJoinedColumns(s: Select, left: { rel: Relation; alias: string }, right: { rel: Relation; alias: string }): void {
  const names = renameRight(new Set(left.rel.columns), right.rel.columns);
  const expected = [...left.rel.columns.map((c) => [left.alias, c, c]), ...right.rel.columns.map((c) => [right.alias, c, names[c]])];
  const ok =
    s.items.length === expected.length &&
    s.items.every((it, i) => {
      const cast = it.expr.tokens[0]?.upper === 'CAST' ? it.expr.tokens.slice(2, 5) : null;
      const q = cast ? (cast[1]?.value === '.' ? { q: cast[0].value, name: cast[2].value } : null) : qualifiedColumn(it.expr);
      return q?.q === expected[i][0] && q.name === expected[i][1] && itemName({ expr: it.expr, alias: it.alias ?? q.name }) === expected[i][2];
    });
  if (!ok) {
    fail(s.tok, 'JOIN', `the SELECT list must keep every column: ${expected.map(([a, c, n]) => `${a}.${c}${n !== c ? ` AS ${n}` : ''}`).join(', ')}`);
  }
}

/** ON l.a = r.b AND …, plus at most one BETWEEN on the right time column (interval joins). */
function onClause(cx: ImportContext, on: Span, l: string, r: string) {
  const leftKey: string[] = [];
  const rightKey: string[] = [];
  let between: { lower: number; upper: number; leftTime: string; rightTime: string } | null = null;
  const residual: Span[] = [];
  for (const part of split(on, cx.sql, 'AND')) {
    // The export writes a regular join's nonEquiCondition as one parenthesised conjunct.
    if (part.tokens[0]?.value === '(' && part.tokens[part.tokens.length - 1]?.value === ')') {
      residual.push(part);
      continue;
    }
    const eq = split(part, cx.sql, '=');
    if (eq.length === 2) {
      const [a, b] = eq.map(qualifiedColumn);
      const lhs = a?.q === l ? a : b?.q === l ? b : null;
      const rhs = a?.q === r ? a : b?.q === r ? b : null;
      if (!lhs || !rhs) fail(part, 'JOIN … ON', `expected ${l}.<column> = ${r}.<column>`);
      leftKey.push(lhs.name);
      rightKey.push(rhs.name);
      continue;
    }
    const bi = part.tokens.findIndex((t) => t.upper === 'BETWEEN');
    const andAt = part.tokens.findIndex((t, i) => i > bi && t.upper === 'AND');
    const rt = bi > 0 ? qualifiedColumn({ ...part, tokens: part.tokens.slice(0, bi) }) : null;
    if (!rt || rt.q !== r || andAt < 0 || between) fail(part, 'JOIN … ON', `expected ${l}.<key> = ${r}.<key>, or one ${r}.<time> BETWEEN ${l}.<time> - INTERVAL … AND ${l}.<time> + INTERVAL …`);
    const lo = columnPlusInterval({ ...part, tokens: part.tokens.slice(bi + 1, andAt), text: '' }, cx.sql, 'BETWEEN');
    const hi = columnPlusInterval({ ...part, tokens: part.tokens.slice(andAt + 1), text: '' }, cx.sql, 'BETWEEN');
    if (lo.q !== l || hi.q !== l || lo.column !== hi.column) fail(part, 'BETWEEN', `both bounds must be ${l}.<time column> plus or minus an INTERVAL`);
    between = { lower: lo.ms, upper: hi.ms, leftTime: lo.column, rightTime: rt.name };
  }
  return { leftKey, rightKey, between, residual };
}

/** STATE_TTL('l' = '…') in the join's hint: the TTL of its state. */
function hintTtl(s: Select): number | null {
  const m = s.hint ? /STATE_TTL\s*\(\s*'[^']*'\s*=\s*'([^']*)'/i.exec(s.hint.value) : null;
  return m ? durationMs(m[1]) : null;
}

export function joinNode(cx: ImportContext, name: string, s: Select, ann: Annotation | null, helpers: Map<string, string>): ImportedNode {
  const j = s.from;
  if (j.kind !== 'join' || j.type === 'cross' || !j.on) throw new Error('not a join');
  const left = side(cx, j.left, 'JOIN');
  const right = side(cx, j.right, 'JOIN');
  if (s.where || s.groupBy) fail(s.where ?? s.groupBy![0], 'JOIN', 'a join view holds only the join; filter or aggregate in a view of its own');
  checkJoinedColumns(s, left, right);
  const { leftKey, rightKey, between, residual } = onClause(cx, j.on, left.alias, right.alias);
  let nonEquiCondition: string | null = null;
  if (residual.length) {
    if (right.from.systemTime || between) fail(residual[0], 'JOIN … ON', 'a further condition is read only on a regular join');
    // Over the joined row: left columns keep their names, right ones are renamed as the engine does.
    const names = renameRight(new Set(left.rel.columns), right.rel.columns);
    const esc = (a: string) => a.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const qualified = new RegExp(`(?:\`(${esc(left.alias)}|${esc(right.alias)})\`|\\b(${esc(left.alias)}|${esc(right.alias)}))\\.\`((?:[^\`]|\`\`)+)\``, 'g');
    const text = residual.map((p) => p.text.replace(qualified, (_m, qa: string, qb: string, col: string) => `\`${(qa ?? qb) === right.alias && (qa ?? qb) !== left.alias ? names[col.replace(/``/g, '`')] ?? col : col}\``)).join(' AND ');
    nonEquiCondition = weirExpr({ ...residual[0], text }, cx.sql, 'JOIN … ON');
  }
  if (!leftKey.length) fail(j.on, 'JOIN … ON', 'a join needs at least one key equality');
  const type = j.type;
  if (right.from.systemTime) {
    if (type !== 'inner' && type !== 'left') fail(j.tok, 'FOR SYSTEM_TIME AS OF', 'a temporal join is INNER or LEFT');
    if (between) fail(j.on, 'FOR SYSTEM_TIME AS OF', 'a temporal join takes no BETWEEN');
    const t = qualifiedColumn(right.from.systemTime);
    if (t?.q !== left.alias) fail(right.from.systemTime, 'FOR SYSTEM_TIME AS OF', `expected ${left.alias}.<event-time column>`);
    // The export's `<join>_versions` view only makes the right side a versioned table: read its input.
    const rightInput = helpers.get(right.rel.name) ?? right.rel.name;
    return { id: name, kind: 'temporalJoin', params: { type, leftKey, rightKey }, inputs: [['left', left.rel.name], ['right', rightInput]], annotation: ann };
  }
  if (between) {
    return {
      id: name,
      kind: 'intervalJoin',
      params: { type, leftKey, rightKey, lowerBoundMs: between.lower, upperBoundMs: between.upper },
      inputs: [['left', left.rel.name], ['right', right.rel.name]],
      annotation: ann,
    };
  }
  const ttlMs = hintTtl(s) ?? cx.globalTtlMs;
  return { id: name, kind: 'join', params: { type, leftKey, rightKey, ...(nonEquiCondition ? { nonEquiCondition } : {}), ...(ttlMs !== null ? { ttlMs } : {}) }, inputs: [['left', left.rel.name], ['right', right.rel.name]], annotation: ann };
}

const CODE_KINDS = ['map', 'flatMap', 'process', 'broadcastProcess'];

/** `FROM in AS i CROSS JOIN LATERAL TABLE(fn(i.…)) AS t(…)`: a node whose code was ported to `fn`. */
export function lateralNode(cx: ImportContext, name: string, s: Select, ann: Annotation | null): ImportedNode {
  const j = s.from;
  if (j.kind !== 'join' || j.right.kind !== 'lateral') throw new Error('not a lateral call');
  const input = side(cx, j.left, 'LATERAL TABLE');
  if (!cx.functions.has(j.right.fn)) fail(j.right.tok, 'LATERAL TABLE', `\`${j.right.fn}\` is not created above with CREATE TEMPORARY FUNCTION`);
  const kind = typeof ann?.kind === 'string' && CODE_KINDS.includes(ann.kind) ? ann.kind : null;
  const params = ann?.params as Record<string, unknown> | undefined;
  if (!kind || !params) fail(j.right.tok, 'LATERAL TABLE', `\`${j.right.fn}\` stands for ported code; the import needs the node's kind and code in its @weir annotation`);
  const inputs: [string, string][] = [['in', input.rel.name]];
  if (kind === 'broadcastProcess') {
    const rules = typeof ann?.rules === 'string' ? ann.rules : fail(j.right.tok, 'LATERAL TABLE', 'the broadcast node\'s annotation does not say which stream holds its rules');
    inputs.push(['rules', cx.relation(rules, j.right.tok, 'broadcast rules').name]);
  }
  return { id: name, kind, params, inputs, annotation: ann };
}

/** WHERE `fn`(…): a filter whose predicate was ported to a function. */
export function isCodePredicate(cx: ImportContext, where: Span): boolean {
  const c = call(where, cx.sql);
  return !!c && c.quoted && cx.functions.has(c.name) && c.args.every((a) => plainColumn(a) !== null);
}
