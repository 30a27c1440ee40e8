// UNNEST as Flink users write it: which forms plan to which unnest node, and what is refused, where and why.
import { describe, expect, it } from 'vitest';
import { importFlinkSql } from './index.ts';
import { collectionOf } from './plan/collectionType.ts';

const CARTS = `CREATE TABLE carts (
  id BIGINT,
  tags ARRAY<STRING>,
  items ARRAY<ROW<sku STRING, qty INT>>,
  attrs MAP<STRING, DOUBLE>,
  note STRING
) WITH ('connector' = 'filesystem', 'path' = '/data/carts.jsonl', 'format' = 'json');
`;

function plan(q: string) {
  const r = importFlinkSql(`${CARTS}${q};`);
  if (!r.ok) throw new Error(r.errors.map((e) => `${e.line}:${e.column} ${e.construct}: ${e.message}`).join('\n'));
  return r.doc;
}
const unnestOf = (q: string) => plan(q).nodes.find((n) => n.kind === 'unnest')!;
function errorOf(q: string) {
  const r = importFlinkSql(`${CARTS}${q};`);
  expect(r.ok).toBe(false);
  return r.ok ? null : r.errors[0];
}

describe('Flink SQL UNNEST', () => {
  it('plans CROSS JOIN UNNEST with the element type from the ARRAY column', () => {
    expect(unnestOf('SELECT id, tag FROM carts CROSS JOIN UNNEST(tags) AS t (tag)').params).toEqual({ expr: '`tags`', as: ['tag'], types: ['string'] });
  });

  it('names a row element\'s columns by its ROW fields when the alias lists none, and reads them by those fields', () => {
    const n = unnestOf('SELECT id, sku, qty FROM carts CROSS JOIN UNNEST(items)');
    expect(n.params).toEqual({ expr: '`items`', as: ['sku', 'qty'], elementFields: ['sku', 'qty'], types: ['string', 'integer'] });
    // Renamed by the alias list, still read by the ROW's fields in their order.
    expect(unnestOf('SELECT id, s, q FROM carts CROSS JOIN UNNEST(items) AS i (s, q)').params).toMatchObject({ as: ['s', 'q'], elementFields: ['sku', 'qty'] });
  });

  it('plans LEFT JOIN UNNEST … ON TRUE as outer, and JOIN … ON TRUE and the comma form as inner', () => {
    expect(unnestOf('SELECT c.id, t.tag FROM carts AS c LEFT JOIN UNNEST(c.tags) AS t (tag) ON TRUE').params.outer).toBe(true);
    expect(unnestOf('SELECT id, tag FROM carts JOIN UNNEST(tags) AS t (tag) ON TRUE').params.outer).toBeUndefined();
    const doc = plan("SELECT id, k, v FROM carts, UNNEST(attrs) AS a (k, v) WHERE v > 1 AND k <> 'x'");
    expect(doc.nodes.map((n) => n.kind)).toEqual(['fileSource', 'unnest', 'filter', 'project', 'viewSink']);
    expect(doc.nodes.find((n) => n.kind === 'filter')!.params).toEqual({ where: "`v` > 1 AND `k` <> 'x'" });
  });

  it('gives a new column whose name an input field has a field of its own, read by its SQL name', () => {
    const doc = plan('SELECT c.id, t.id AS tag_id FROM carts AS c CROSS JOIN UNNEST(c.tags) AS t (id)');
    expect(doc.nodes.find((n) => n.kind === 'unnest')!.params.as).toEqual(['id0']);
    expect(doc.nodes.find((n) => n.kind === 'project')!.params).toEqual({ fields: [{ name: 'id', expr: '`id`' }, { name: 'tag_id', expr: '`id0`' }] });
  });

  it('refuses what Flink refuses or Weir cannot read, at the construct, with the form to write', () => {
    expect(errorOf('SELECT id, tag FROM carts RIGHT JOIN UNNEST(tags) AS t (tag) ON TRUE')).toMatchObject({ construct: 'RIGHT JOIN UNNEST' });
    expect(errorOf('SELECT id, tag FROM carts LEFT JOIN UNNEST(tags) AS t (tag) ON tag = \'a\'')!.message).toMatch(/takes ON TRUE/);
    const width = errorOf('SELECT id FROM carts CROSS JOIN UNNEST(items) AS i (s)')!;
    expect(width.message).toBe('the elements are rows of 2 fields (sku, qty): name 2 columns');
    expect(errorOf('SELECT id FROM carts CROSS JOIN UNNEST(attrs)')!.message).toMatch(/name its key and value columns/);
    expect(errorOf('SELECT tag FROM UNNEST(tags) AS t (tag)')!.message).toMatch(/CROSS JOIN UNNEST\(t\.items\)/);
  });

  it('reads element types from ARRAY, ROW and MAP type text, nested and NOT NULL included', () => {
    expect(collectionOf('ARRAY<STRING>')).toEqual({ names: null, types: ['string'] });
    expect(collectionOf('ARRAY<DECIMAL(10, 2)> NOT NULL')).toEqual({ names: null, types: ['number'] });
    expect(collectionOf("ARRAY<ROW(`order id` BIGINT COMMENT 'the id', tags ARRAY<STRING>, at TIMESTAMP_LTZ(3))>")).toEqual({ names: ['order id', 'tags', 'at'], types: ['integer', 'json', 'timestamp'] });
    expect(collectionOf('MAP<STRING, ROW<a INT>>')).toEqual({ names: null, types: ['string', 'json'] });
    expect(collectionOf('STRING')).toBeNull();
  });
});
