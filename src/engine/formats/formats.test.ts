import { describe, expect, it } from 'vitest';
import { CsvReader, endsInsideQuotes } from './csvReader.ts';
import { JsonArrayReader } from './jsonArrayReader.ts';
import { inferTextType } from './inferTypes.ts';
import { runPipeline } from '../../testing/runPipeline.ts';

const readAll = (r: { read(n: number): unknown[]; done(): boolean }) => {
  const out: unknown[] = [];
  while (!r.done()) out.push(...r.read(3));
  return out;
};

describe('CSV', () => {
  const text = ['id,name,score,when', '1,ann,3.5,2024-01-02T03:04:05Z', '', '2,"bob, jr.","4",2024-01-02', '3,"multi', 'line ""quoted""",,2024-01-03', '4,short', '5,"x",1,2024-01-04'];

  it('infers types, parses quoted and multi-line fields, keeps line numbers, dead-letters bad lines', () => {
    const r = new CsvReader(text, { delimiter: ',' });
    expect(r.types).toEqual({ id: 'integer', name: 'string', score: 'number', when: 'timestamp' });
    expect(readAll(r)).toEqual([
      { value: { id: 1, name: 'ann', score: 3.5, when: '2024-01-02T03:04:05Z' }, raw: text[1], line: 2 },
      { value: { id: 2, name: 'bob, jr.', score: 4, when: '2024-01-02' }, raw: text[3], line: 4 },
      { value: { id: 3, name: 'multi\nline "quoted"', score: null, when: '2024-01-03' }, raw: `${text[4]}\n${text[5]}`, line: 5 },
      { raw: '4,short', line: 7, error: 'expected 4 fields (as in the header), got 2' },
      { value: { id: 5, name: 'x', score: 1, when: '2024-01-04' }, raw: text[7], line: 8 },
    ]);
  });

  it('replays exactly from an offset', () => {
    const r = new CsvReader(text, { delimiter: ',' });
    const all = readAll(r);
    const a = new CsvReader(text, { delimiter: ',' });
    const head = a.read(2);
    const b = new CsvReader(text, { delimiter: ',' });
    b.seek(a.offset());
    expect([...head, ...readAll(b)]).toEqual(all);
  });

  it('reports a quote that never closes', () => {
    const r = new CsvReader(['a,b', '1,"open', '2,3'], { delimiter: ',' });
    expect(r.read(10)).toEqual([{ raw: '1,"open\n2,3', line: 2, error: 'a quoted field opened on line 2 is never closed' }]);
  });

  it('a quote inside an unquoted field is text', () => {
    expect(endsInsideQuotes('5",x', ',', false)).toBe(false);
    expect(endsInsideQuotes('a,"b', ',', false)).toBe(true);
    expect(endsInsideQuotes('c"",d', ',', true)).toBe(true);
  });

  it('type inference picks the narrowest type', () => {
    expect(inferTextType(['1', '', '-3'])).toBe('integer');
    expect(inferTextType(['1', '2.5'])).toBe('number');
    expect(inferTextType(['TRUE', 'false'])).toBe('boolean');
    expect(inferTextType(['2024-01-01', 'x'])).toBe('string');
  });

  it('runs in a pipeline with a schema and event time; a bad cell is dead-lettered with its line', () => {
    const doc = {
      format: 'weir/pipeline', version: 1, name: 'csv',
      nodes: [
        { id: 'src', kind: 'fileSource', params: { format: 'csv', schema: { user: 'string', amount: 'number', ts: 'timestamp' }, eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 } } },
        { id: 'out', kind: 'collectSink', params: {} },
      ],
      edges: [{ from: { node: 'src', port: 'out' }, to: { node: 'out', port: 'in' } }],
    };
    const run = runPipeline(doc, { inputs: { src: { name: 'x.csv', lines: ['user,amount,ts', 'ann,3,1000', 'bob,three,2000', 'cy,1,1970-01-01T00:00:03Z'] } } });
    expect(run.changelogs.out.map((e) => [e.row.user, e.row.amount, e.ts])).toEqual([['ann', 3, 1000], ['cy', 1, 3000]]);
    expect(run.deadLetters.map((d) => [d.line, d.reason])).toEqual([[3, 'field "amount": expected number, got "three" (string)']]);
  });
});

describe('JSON array', () => {
  const text = ['[', '  {"a": 1, "s": "x,]"},', '  {"a": 2,', '   "b": [1, 2]}, {"a": 3}, not-json,', '  {"a": 4}', ']'];
  it('reads element by element with their lines, and replays from an offset', () => {
    const all = readAll(new JsonArrayReader(text));
    expect(all).toEqual([
      { value: { a: 1, s: 'x,]' }, raw: '{"a": 1, "s": "x,]"}', line: 2 },
      { value: { a: 2, b: [1, 2] }, raw: '{"a": 2,\n   "b": [1, 2]}', line: 3 },
      { value: { a: 3 }, raw: '{"a": 3}', line: 4 },
      expect.objectContaining({ line: 4, raw: 'not-json', error: expect.stringContaining('not valid JSON') }),
      { value: { a: 4 }, raw: '{"a": 4}', line: 5 },
    ]);
    const r = new JsonArrayReader(text);
    r.seek(2);
    expect(readAll(r)).toEqual(all.slice(2));
  });
  it('says when the file is not an array', () => {
    expect(new JsonArrayReader(['{"a":1}']).read(5)).toEqual([expect.objectContaining({ line: 1, error: expect.stringContaining('must start with [') })]);
  });
});

describe('pasted rows', () => {
  it('reads TSV, CSV, JSON arrays and JSON Lines, inferring types', async () => {
    const { parsePastedRows } = await import('./pastedRows.ts');
    expect(parsePastedRows('user\tn\nann\t1\nbob\t2\n')).toMatchObject({ format: 'tsv', rows: [{ user: 'ann', n: 1 }, { user: 'bob', n: 2 }], schema: { user: 'string', n: 'integer' } });
    expect(parsePastedRows('a;b\n1;x\n2;y')).toMatchObject({ format: 'csv', rows: [{ a: 1, b: 'x' }, { a: 2, b: 'y' }] });
    expect(parsePastedRows('[{"a":1.5},{"a":2}]')).toMatchObject({ format: 'json', schema: { a: 'number' } });
    expect(parsePastedRows('{"a":1}\nnope\n{"a":2}')).toMatchObject({ format: 'jsonl', rows: [{ a: 1 }, { a: 2 }], errors: [{ line: 2 }] });
  });
});

describe('pasted JSON arrays', () => {
  it('keeps the good elements and names the line of each bad one', async () => {
    const { parsePastedRows } = await import('./pastedRows.ts');
    const p = parsePastedRows('[\n{"a": 1, "ts": "2024-01-01T00:00:00Z"},\n42,\n{"a": 2, "ts": "2024-01-02T00:00:00Z"}\n]');
    expect(p.rows).toEqual([{ a: 1, ts: '2024-01-01T00:00:00Z' }, { a: 2, ts: '2024-01-02T00:00:00Z' }]);
    expect(p.errors).toEqual([{ line: 3, reason: 'a record must be a JSON object' }]);
    expect(p.schema).toEqual({ a: 'integer', ts: 'timestamp' });
  });
  it('an integer column named like a time with epoch-ms values is a timestamp', async () => {
    const { inferColumns } = await import('./inferTypes.ts');
    expect(inferColumns(['created_at', 'count'], [['1700000000000', '1700000000000']])).toEqual({ created_at: 'timestamp', count: 'integer' });
    expect(inferColumns(['ts'], [['12']])).toEqual({ ts: 'integer' });
  });
});

describe('file samples', () => {
  it('infers a CSV sample cut mid-line, a TSV, JSON Lines and a cut JSON array', async () => {
    const { sampleFile } = await import('./fileSample.ts');
    expect(sampleFile('a.csv', 'id,ts,ok\n1,2024-01-01T00:00:00Z,true\n2,2024-01-02T00:00:00Z,false\n3,20', false)).toEqual({ format: 'csv', schema: { id: 'integer', ts: 'timestamp', ok: 'boolean' }, timeField: 'ts', records: 2, bad: [] });
    expect(sampleFile('a.tsv', 'a\tb\n1\tx\n', true)).toMatchObject({ format: 'csv', delimiter: '\t', schema: { a: 'integer', b: 'string' } });
    expect(sampleFile('e.jsonl', '{"n":1.5}\nbad\n', true)).toMatchObject({ format: 'jsonl', schema: { n: 'number' }, records: 2, bad: [{ line: 2 }] });
    expect(sampleFile('e.json', '[\n{"n":1},\n{"n":', false)).toMatchObject({ format: 'json', schema: { n: 'integer' }, records: 1, bad: [] });
  });
});
