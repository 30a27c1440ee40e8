import type { LineageStep } from '../../pipeline/lineage/columnLineage.ts';
import type { t as translate } from '../i18n/i18n.ts';

/**
 * One step of a column's lineage as a badge line: `total = SUM(amount)`, `city = right.city · ON left.id = right.id`,
 * `qty · source column`. Expressions stay in SQL, which reads the same in every language.
 */
export function stepLabel(step: LineageStep, t: typeof translate): string {
  const { column } = step.ref;
  const d = step.derivation;
  let text: string;
  switch (d.how) {
    case 'source':
      text = `${column} · ${t('lineage.source')}`;
      break;
    case 'copy': {
      const from = d.from[0];
      const side = from && from.port !== 'in' ? `${from.port}.` : '';
      text = from && (from.column !== column || side) ? `${column} = ${side}${from.column}` : column;
      break;
    }
    case 'merge':
      text = `${column} = ${t('lineage.merge', { n: d.from.length })}`;
      break;
    case 'code':
      text = d.from.length ? `${column}: ${t('lineage.userCodeOf', { fields: d.from.map((f) => f.column).join(', ') })}` : `${column}: ${t('lineage.userCode')}`;
      break;
    case 'unknown':
      text = `${column}: ${t('lineage.unknown')}`;
      break;
    default:
      text = `${column} = ${d.expr ?? '?'}`;
  }
  if (d.role === 'joinKey' && d.condition) text += ` · ON ${d.condition}`;
  else if (d.role === 'groupKey') text += ` · ${t('lineage.groupKey')}`;
  else if (d.role === 'partitionKey') text += ` · ${t('lineage.partitionKey')}`;
  return text;
}

/** Where a column is, for the canvas bar: `node.column`. */
export const columnName = (ref: { node: string; column: string }): string => `${ref.node}.${ref.column}`;
