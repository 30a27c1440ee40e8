import { describe, expect, it } from 'vitest';
import { validateNow } from '../validation/validationStore.ts';
import type { PipelineDocument } from '../../pipeline/document.ts';
import { t } from '../i18n/i18n.ts';
import { clearLineage, lineageActive, lineageStore, showLineage, sinkColumn } from './lineageStore.ts';
import { stepLabel } from './lineageText.ts';
import { columnInStatement } from './sqlColumn.ts';
import { columnGraph } from '../../pipeline/lineage/columnLineage.ts';

const doc = (expr: string): PipelineDocument => ({
  format: 'weir/pipeline',
  version: 1,
  name: 't',
  nodes: [
    { id: 'orders', kind: 'inlineSource', params: { schema: { id: 'string', price: 'number', qty: 'integer', who: 'string' }, rows: [] } },
    { id: 'users', kind: 'inlineSource', params: { schema: { id: 'string', city: 'string' }, rows: [] } },
    { id: 'j', kind: 'join', params: { type: 'inner', leftKey: ['who'], rightKey: ['id'] } },
    { id: 'm', kind: 'map', params: { set: [{ name: 'total', expr }] } },
    { id: 'g', kind: 'aggregate', params: { groupBy: ['city'], aggregates: [{ fn: 'sum', field: 'total', as: 'revenue' }] } },
    { id: 'v', kind: 'viewSink', params: {} },
  ],
  edges: [
    { from: { node: 'orders', port: 'out' }, to: { node: 'j', port: 'left' } },
    { from: { node: 'users', port: 'out' }, to: { node: 'j', port: 'right' } },
    { from: { node: 'j', port: 'out' }, to: { node: 'm', port: 'in' } },
    { from: { node: 'm', port: 'out' }, to: { node: 'g', port: 'in' } },
    { from: { node: 'g', port: 'out' }, to: { node: 'v', port: 'in' } },
  ],
});

const labels = (node: string) => (lineageStore.get().byNode.get(node)?.steps ?? []).map((s) => stepLabel(s, (k, v) => t(k, v, 'en')));

describe('the lineage the canvas shows', () => {
  it('badges each step of a view column with its expression, and follows edits', () => {
    const d = doc('price * qty');
    validateNow(d);
    showLineage(sinkColumn(d, 'v', 'revenue'));
    expect(lineageActive()).toBe(true);
    expect(labels('v')).toEqual(['revenue']);
    expect(labels('g')).toEqual(['revenue = SUM(total)']);
    expect(labels('m')).toEqual(['total = price * qty']);
    expect(labels('j').sort()).toEqual(['price = left.price', 'qty = left.qty']);
    expect(labels('orders').sort()).toEqual(['price · source column', 'qty · source column']);
    expect(lineageStore.get().byNode.has('users')).toBe(false);
    expect(lineageStore.get().byNode.get('v')!.root).toBe(true);

    // The map now reads the user's city: the users source joins the path.
    validateNow(doc("price * qty || city"));
    expect(labels('j').sort()).toEqual(['city = right.city', 'price = left.price', 'qty = left.qty']);
    expect(labels('users')).toEqual(['city · source column']);
    clearLineage();
    expect(lineageActive()).toBe(false);
  });

  it('a join key names its condition and a group key says so; selecting the shown column again ends it', () => {
    const d = doc('price * qty');
    validateNow(d);
    showLineage({ node: 'orders', port: 'out', column: 'who' });
    expect(labels('j')).toEqual(['who = left.who · ON left.who = right.id']);
    showLineage({ node: 'users', port: 'out', column: 'city' });
    expect(labels('g')).toEqual(['city · GROUP BY key']);
    showLineage({ node: 'users', port: 'out', column: 'city' });
    expect(lineageActive()).toBe(false);
  });

  it('a column that leaves the document ends the highlight', () => {
    const d = doc('price * qty');
    validateNow(d);
    showLineage({ node: 'm', port: 'out', column: 'total' });
    expect(lineageActive()).toBe(true);
    validateNow({ ...d, nodes: d.nodes.map((n) => (n.id === 'm' ? { ...n, params: { set: [{ name: 'sum', expr: 'price' }] } } : n)) });
    expect(lineageActive()).toBe(false);
  });

  it('user code is said to compute, in both languages', () => {
    const step = { ref: { node: 'p', port: 'out', column: 'c' }, derivation: { how: 'code' as const, from: [] }, inputs: [] };
    expect(stepLabel(step, (k, v) => t(k, v, 'en'))).toBe('c: computed by user code');
    expect(stepLabel(step, (k, v) => t(k, v, 'zh-TW'))).toBe('c: 由使用者程式碼計算');
  });

  it('a name in a statement is the column its operator makes, else one it reads', () => {
    const d = doc('price * qty');
    const g = columnGraph(d);
    expect(columnInStatement(d, g, 'g', '`revenue`')).toEqual({ node: 'g', port: 'out', column: 'revenue' });
    expect(columnInStatement(d, g, 'g', 'total')).toEqual({ node: 'm', port: 'out', column: 'total' });
    expect(columnInStatement(d, g, 'g', 'price')).toEqual({ node: 'm', port: 'out', column: 'price' });
    expect(columnInStatement(d, g, 'g', 'nope')).toBeNull();
    // Outside a statement: the one operator that makes the name; a source column is made by its source.
    expect(columnInStatement(d, g, null, 'revenue')).toEqual({ node: 'g', port: 'out', column: 'revenue' });
    expect(columnInStatement(d, g, null, 'city')).toEqual({ node: 'users', port: 'out', column: 'city' });
    // Both sources make an id: ambiguous.
    expect(columnInStatement(d, g, null, 'id')).toBeNull();
  });
});
