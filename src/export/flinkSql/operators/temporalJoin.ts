/**
 * Event-time temporal join: `JOIN right FOR SYSTEM_TIME AS OF l.ts`. Flink needs the right side to
 * be a versioned table — a primary key and an event-time attribute. An append-only right stream is
 * turned into one the way Flink's docs do: a view keeping the last row per key by event time
 * (ROW_NUMBER … ORDER BY ts DESC = 1), from which Flink derives the key. Each appended row is then a
 * new version from its event time on, which is what Weir does with a +I on the right input.
 */
import type { TemporalJoinParams } from '../../../pipeline/kinds/temporalJoin.ts';
import type { DedupParams } from '../../../pipeline/kinds/dedup.ts';
import type { Relation, ViewDef } from '../context.ts';
import { freshName, ident, identList } from '../sqlText.ts';
import type { OperatorArgs, OperatorExport } from './shared.ts';
import { describe, indent, view, paramsOf } from './shared.ts';
import { joinedSelect, joinInputs, keyCondition } from './joins.ts';

const sameSet = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x) => b.includes(x));

/** Is `rel` already a table Flink treats as versioned by `key`? */
function isVersioned(rel: Relation, key: readonly string[], a: OperatorArgs): boolean {
  const n = rel.node;
  if (!n) return false;
  if (n.kind === 'dedup') {
    const d = n.params as unknown as DedupParams;
    return d.keep === 'last' && d.order === 'eventTime' && sameSet(d.key, key);
  }
  // An upsert-kafka source gets the temporal join's key as its primary key (see sources.ts).
  return n.isSource && a.cx.options.connectors?.[n.id] === 'upsert-kafka';
}

function versionsView(a: OperatorArgs, right: Relation, key: readonly string[]): ViewDef {
  const name = a.cx.fresh(`${a.node.id}_versions`);
  const rank = freshName('rownum', new Set(right.columns));
  const inner = `SELECT ${identList(right.columns)}, ROW_NUMBER() OVER (PARTITION BY ${identList(key)} ORDER BY ${ident(right.time!)} DESC) AS ${ident(rank)}\nFROM ${ident(right.name)}`;
  return view(
    name,
    [`versions of \`${right.name}\` for temporal join \`${a.node.id}\`: the latest row per (${key.join(', ')}) by event time; Flink derives the primary key from it`],
    `SELECT ${identList(right.columns)}\nFROM (\n${indent(inner)}\n)\nWHERE ${ident(rank)} = 1`,
  );
}

export const temporalJoinExport: OperatorExport = (a) => {
  const p = paramsOf<TemporalJoinParams>(a.node);
  const io = joinInputs(a);
  if (!io) return null;
  const { left } = io;
  let right = io.right;
  if (!left.time || !right.time) {
    a.cx.warn(a.node.id, `skipped: the ${left.time ? 'right' : 'left'} input has no time attribute in SQL, which an event-time temporal join needs`);
    return null;
  }
  const views: ViewDef[] = [];
  if (!isVersioned(right, p.rightKey, a)) {
    if (right.changelog === 'append') {
      const v = versionsView(a, right, p.rightKey);
      views.push(v);
      right = { ...right, name: v.name, node: null };
    } else {
      a.cx.warn(a.node.id, `the right input \`${right.name}\` is an updating stream Flink may not see as a versioned table keyed by (${p.rightKey.join(', ')}); make it a Deduplicate (keep last, by event time) on that key`);
    }
  }
  const join = p.type === 'left' ? 'LEFT JOIN' : 'INNER JOIN';
  const sql = `SELECT ${joinedSelect(left, right, right.time).join(', ')}\nFROM ${ident(left.name)} AS l\n${join} ${ident(right.name)} FOR SYSTEM_TIME AS OF l.${ident(left.time)} AS r\n  ON ${keyCondition(p.leftKey, p.rightKey)}`;
  views.push(view(a.node.id, [`temporal join ${describe(a.node)}: each left row with the version of (${p.rightKey.join(', ')}) valid at its event time`], sql));
  return views;
};
