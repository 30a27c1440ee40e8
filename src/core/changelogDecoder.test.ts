import { describe, expect, it } from 'vitest';
import { SourceTask } from '../engine/sourceTask.ts';
import { jsonLinesReader } from './source.ts';
import type { CommonSourceParams } from './source.ts';

const lines = (rows: unknown[]) => rows.map((r) => JSON.stringify(r));
const kinds = (task: SourceTask, max = 100) => task.poll(max).elements.map((e) => `${e.kind} ${JSON.stringify(e.row)}`);

describe('changelog sources', () => {
  const schema = { id: 'integer', v: 'string' };

  it('Debezium c/u/d with before images become +I, -U/+U, -D; tombstones are skipped', () => {
    const t = new SourceTask('s', jsonLinesReader([...lines([{ op: 'c', after: { id: 1, v: 'a' } }, { op: 'u', before: { id: 1, v: 'a' }, after: { id: 1, v: 'b' } }, { op: 'd', before: { id: 1, v: 'b' } }]), 'null']), { schema, changelog: { format: 'debezium-json' } });
    expect(kinds(t)).toEqual(['+I {"id":1,"v":"a"}', '-U {"id":1,"v":"a"}', '+U {"id":1,"v":"b"}', '-D {"id":1,"v":"b"}']);
  });

  it('dead-letters unknown ops and missing images with their line', () => {
    const t = new SourceTask('s', jsonLinesReader(lines([{ op: 'x', after: {} }, { op: 'u', after: { id: 1, v: 'b' } }, { op: 'c', after: { id: 'one', v: 'a' } }])), { schema, changelog: { format: 'debezium-json' } });
    const p = t.poll(10);
    expect(p.elements).toEqual([]);
    expect(p.deadLetters.map((d) => [d.line, d.reason])).toEqual([
      [1, 'unknown Debezium op "x"; expected c, r, u or d'],
      [2, 'Debezium op "u" has no "before" image; declare the primary key so the source can retract the previous row'],
      [3, 'field "id": expected integer, got "one" (string)'],
    ]);
  });

  it('with a primary key, retractions carry the row the source last emitted, duplicates vanish', () => {
    const t = new SourceTask('s', jsonLinesReader(lines([
      { op: 'c', after: { id: 1, v: 'a' } },
      { op: 'c', after: { id: 1, v: 'a' } },
      { op: 'u', before: null, after: { id: 1, v: 'b' } },
      { op: 'd', before: { id: 1 } },
      { op: 'd', before: { id: 1 } },
    ])), { schema, changelog: { format: 'debezium-json', primaryKey: ['id'] } });
    expect(kinds(t)).toEqual(['+I {"id":1,"v":"a"}', '-U {"id":1,"v":"a"}', '+U {"id":1,"v":"b"}', '-D {"id":1,"v":"b"}']);
  });

  it('changelog-json passes its ops through', () => {
    const t = new SourceTask('s', jsonLinesReader(lines([{ op: '+I', data: { id: 1, v: 'a' } }, { op: '-U', data: { id: 1, v: 'a' } }, { op: '+U', data: { id: 1, v: 'c' } }, { op: '-D', data: { id: 1, v: 'c' } }, { op: 'I', data: {} }])), { schema, changelog: { format: 'changelog-json' } });
    const p = t.poll(10);
    expect(p.elements.map((e) => e.kind)).toEqual(['+I', '-U', '+U', '-D']);
    expect(p.deadLetters[0]).toMatchObject({ line: 5, reason: 'unknown changelog-json op "I"; expected +I, -U, +U or -D' });
  });

  it('upsert: a null value deletes, a flat row upserts, a snapshot restores the table', () => {
    const input = lines([{ key: { id: 1 }, value: { v: 'a' } }, { id: 2, v: 'x' }, { key: { id: 1 }, value: { v: 'b' } }, { key: { id: 2 }, value: null }, { key: { id: 3 }, value: null }, { id: 1, v: 'c' }]);
    const params: CommonSourceParams = { schema, changelog: { format: 'upsert', primaryKey: ['id'] } };
    const all = kinds(new SourceTask('s', jsonLinesReader(input), params));
    expect(all).toEqual(['+I {"v":"a","id":1}', '+I {"id":2,"v":"x"}', '-U {"v":"a","id":1}', '+U {"v":"b","id":1}', '-D {"id":2,"v":"x"}', '-U {"v":"b","id":1}', '+U {"id":1,"v":"c"}']);

    const first = new SourceTask('s', jsonLinesReader(input), params);
    const head = kinds(first, 3);
    const snap = structuredClone(first.snapshot());
    const resumed = new SourceTask('s', jsonLinesReader(input), params);
    resumed.restore(snap);
    expect([...head, ...kinds(resumed)]).toEqual(all);
  });
});

describe('Canal and Maxwell changelogs', () => {
  const schema = { id: 'integer', v: 'string', n: 'integer' };
  const canal = (type: string, data: unknown[], old?: unknown[]) => ({ database: 'shop', table: 't', type, isDdl: false, data, ...(old ? { old } : {}), ts: 1 });

  it('Canal: one change per row of data; an update puts old back over data for its before image; DDL is skipped', () => {
    const t = new SourceTask('s', jsonLinesReader(lines([
      canal('INSERT', [{ id: 1, v: 'a', n: 1 }, { id: 2, v: 'b', n: 2 }]),
      canal('UPDATE', [{ id: 1, v: 'a', n: 5 }], [{ n: 1 }]),
      { type: 'CREATE', isDdl: true, sql: 'CREATE TABLE t (id INT)' },
      canal('DELETE', [{ id: 2, v: 'b', n: 2 }]),
    ])), { schema, changelog: { format: 'canal-json' } });
    expect(kinds(t)).toEqual(['+I {"id":1,"v":"a","n":1}', '+I {"id":2,"v":"b","n":2}', '-U {"id":1,"v":"a","n":1}', '+U {"id":1,"v":"a","n":5}', '-D {"id":2,"v":"b","n":2}']);
  });

  it('Maxwell: insert, update with old, delete; with a primary key the source keeps the latest row', () => {
    const t = new SourceTask('s', jsonLinesReader(lines([
      { database: 'shop', table: 't', type: 'insert', data: { id: 1, v: 'a', n: 1 } },
      { database: 'shop', table: 't', type: 'update', data: { id: 1, v: 'z', n: 1 }, old: { v: 'a' } },
      { database: 'shop', table: 't', type: 'delete', data: { id: 1, v: 'z', n: 1 } },
      { database: 'shop', table: 't', type: 'delete', data: { id: 1, v: 'z', n: 1 } },
    ])), { schema, changelog: { format: 'maxwell-json', primaryKey: ['id'] } });
    expect(kinds(t)).toEqual(['+I {"id":1,"v":"a","n":1}', '-U {"id":1,"v":"a","n":1}', '+U {"id":1,"v":"z","n":1}', '-D {"id":1,"v":"z","n":1}']);
  });

  it('dead-letters a record with a bad row whole, before any of its rows changes the table', () => {
    const t = new SourceTask('s', jsonLinesReader(lines([
      canal('INSERT', [{ id: 1, v: 'a', n: 1 }, { id: 'two', v: 'b', n: 2 }]),
      canal('UPDATE', [{ id: 1, v: 'a', n: 5 }]),
      { type: 'upsert', data: { id: 1 } },
      canal('INSERT', [{ id: 1, v: 'a', n: 1 }]),
    ])), { schema, changelog: { format: 'canal-json', primaryKey: ['id'] } });
    const p = t.poll(10);
    expect(p.elements.map((e) => `${e.kind} ${JSON.stringify(e.row)}`)).toEqual(['+I {"id":1,"v":"a","n":1}']);
    expect(p.deadLetters.map((d) => [d.line, d.reason])).toEqual([
      [1, 'Canal row 2: field "id": expected integer, got "two" (string)'],
      [2, 'Canal type "UPDATE" needs "old", one object of previous values per row of "data"'],
      [3, 'unknown Canal type "upsert"; expected INSERT, UPDATE or DELETE (or a DDL record, which is skipped)'],
    ]);
  });
});
