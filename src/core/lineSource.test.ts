import { describe, expect, it } from 'vitest';
import type { ByteSource } from './lineSource.ts';
import { StreamedLines } from './lineSource.ts';
import { CsvReader } from '../engine/formats/csvReader.ts';
import { JsonArrayReader } from '../engine/formats/jsonArrayReader.ts';
import { jsonLinesReader } from './source.ts';

/** Bytes of a text, counting how many bytes were read at most at once (the memory a reader needs). */
function bytesOf(text: string): ByteSource & { reads: number; largest: number } {
  const all = new TextEncoder().encode(text);
  const src = {
    size: all.length,
    reads: 0,
    largest: 0,
    read(start: number, end: number) {
      src.reads++;
      const out = all.slice(start, Math.min(end, all.length));
      src.largest = Math.max(src.largest, out.length);
      return out;
    },
  };
  return src;
}

const again0 = (text: string) => new TextEncoder().encode(text).length;

const readAll = (r: { read(n: number): unknown[]; done(): boolean }) => {
  const out: unknown[] = [];
  while (!r.done()) out.push(...r.read(7));
  return out;
};

describe('StreamedLines', () => {
  it('gives the same lines as splitting the whole text, across blocks, CRLF and multi-byte characters', () => {
    const text = ['a,b', 'één,"x', 'y"', '', '日本語,2\r', 'last'].join('\n');
    const src = bytesOf(text);
    const lines = new StreamedLines(src, 4);
    const got: string[] = [];
    for (let i = 0, l = lines.line(0); l !== undefined; l = lines.line(++i)) got.push(l);
    expect(got).toEqual(['a,b', 'één,"x', 'y"', '', '日本語,2', 'last']);
    expect(lines.line(0)).toBe('a,b');
  });

  it('ends a line at a lone CR too (old Mac files), in blocks, without an empty line where a CRLF straddles two blocks', () => {
    const all = (text: string, block: number) => {
      const src = bytesOf(text);
      const lines = new StreamedLines(src, block);
      const got: string[] = [];
      for (let i = 0, l = lines.line(0); l !== undefined; l = lines.line(++i)) got.push(l);
      return { got, largest: src.largest };
    };
    const crOnly = Array.from({ length: 50 }, (_, i) => `{"n":${i}}`).join('\r') + '\r';
    const { got, largest } = all(crOnly, 16);
    expect(got).toEqual(Array.from({ length: 50 }, (_, i) => `{"n":${i}}`));
    expect(largest).toBeLessThanOrEqual(16); // never the whole file at once
    // 'abc\r' fills the first 4-byte block exactly; its '\n' comes in the next one.
    for (const block of [2, 3, 4, 5, 6, 100]) expect(all('abc\r\ndef\rgh\n\ni', block).got, `block ${block}`).toEqual(['abc', 'def', 'gh', '', 'i']);
  });

  it('a CSV read in small blocks equals one read whole, and a seek with a checkpointed position reads only from there', () => {
    const rows = Array.from({ length: 500 }, (_, i) => `${i},name ${i},"multi\nline ${i}",${i % 7 === 0 ? 'bad' : i * 1.5}`);
    const text = `id,name,note,score\n${rows.join('\n')}\n`;
    const lines = text.split('\n').slice(0, -1);
    const whole = readAll(new CsvReader(lines, { delimiter: ',', schema: { id: 'integer', name: 'string', note: 'string', score: 'number' } }));
    const src = bytesOf(text);
    const streamed = new CsvReader(new StreamedLines(src, 256), { delimiter: ',', schema: { id: 'integer', name: 'string', note: 'string', score: 'number' } });
    const head = streamed.read(300);
    const offset = streamed.offset();
    const at = streamed.position();
    expect([...head, ...readAll(streamed)]).toEqual(whole);
    expect(src.largest).toBeLessThanOrEqual(256);
    expect(at!.line).toBeLessThanOrEqual(offset);

    const again = bytesOf(text);
    const resumed = new CsvReader(new StreamedLines(again, 256), { delimiter: ',', schema: { id: 'integer', name: 'string', note: 'string', score: 'number' } });
    const before = again.reads;
    resumed.seek(offset, at);
    const rest = readAll(resumed);
    expect(rest).toEqual(whole.slice(300));
    // From the checkpointed block on: not the whole file again (two more blocks: its identity's head and tail).
    expect((again.reads - before - 2) * 256).toBeLessThan(text.length - at!.byte + 512);
  });

  it('infers CSV types from the first records of a streamed file', () => {
    const r = new CsvReader(new StreamedLines(bytesOf('n,x,ok,t\n1,2.5,true,2024-01-01T00:00:00Z\n2,,false,1700000000000\n'), 8), { delimiter: ',' });
    expect(r.types).toEqual({ n: 'integer', x: 'number', ok: 'boolean', t: 'string' });
    expect(readAll(r)).toHaveLength(2);
  });

  it('JSON Lines and a JSON array stream too, with their line numbers', () => {
    const jl = readAll(jsonLinesReader(new StreamedLines(bytesOf('{"a":1}\n\nnope\n{"a":2}'), 5)));
    expect(jl).toEqual([{ value: { a: 1 }, raw: '{"a":1}', line: 1 }, expect.objectContaining({ line: 3, error: expect.stringContaining('not valid JSON') }), { value: { a: 2 }, raw: '{"a":2}', line: 4 }]);
    const arr = readAll(new JsonArrayReader(new StreamedLines(bytesOf('[\n{"a":1},\n{"a":\n2}\n]\n'), 3)));
    expect(arr).toEqual([{ value: { a: 1 }, raw: '{"a":1}', line: 2 }, { value: { a: 2 }, raw: '{"a":\n2}', line: 3 }]);
  });

  it('an empty file has no lines', () => {
    expect(new StreamedLines(bytesOf('')).line(0)).toBeUndefined();
  });
});

describe('a streamed file in a checkpoint', () => {
  it('the source snapshot keeps the block position, and a restore reads on from there', async () => {
    const { SourceTask } = await import('../engine/sourceTask.ts');
    const text = `n\n${Array.from({ length: 300 }, (_, i) => String(i)).join('\n')}\n`;
    const open = (src: ByteSource) => new SourceTask('s', new CsvReader(new StreamedLines(src, 64), { delimiter: ',', schema: { n: 'integer' } }), { schema: { n: 'integer' } });
    const first = open(bytesOf(text));
    const head = first.poll(200).elements;
    const snap = first.snapshot();
    expect(snap.at).toEqual({ line: expect.any(Number), byte: expect.any(Number), file: { size: again0(text), head: expect.any(Number), tail: expect.any(Number) } });
    expect(snap.at!.byte).toBeGreaterThan(0);
    const again = bytesOf(text);
    const second = open(again);
    second.restore(JSON.parse(JSON.stringify(snap)));
    const rest = [];
    while (!second.done()) rest.push(...second.poll(64).elements);
    expect([...head, ...rest].map((e) => e.row.n)).toEqual(Array.from({ length: 300 }, (_, i) => i));
  });
});

describe('a restore refuses another file', () => {
  const csvText = (n: number, tweak = '') => `n,s\n${Array.from({ length: n }, (_, i) => `${i},${i === n - 1 ? tweak : ''}x`).join('\n')}\n`;
  const csv = (src: ByteSource, name = 'sales.csv') => new CsvReader(new StreamedLines(src, 64, name), { delimiter: ',', schema: { n: 'integer', s: 'string' } });

  it('a CSV checkpointed in one file does not resume in a file of other size or contents, and does in the same one', async () => {
    const { SourceTask } = await import('../engine/sourceTask.ts');
    const open = (src: ByteSource) => new SourceTask('s', csv(src), { schema: { n: 'integer', s: 'string' } });
    const first = open(bytesOf(csvText(300)));
    first.poll(120);
    const snap = JSON.parse(JSON.stringify(first.snapshot()));
    expect(() => open(bytesOf(csvText(301))).restore(snap)).toThrow(/file "sales.csv" is not the file the checkpoint read \(it has \d+ bytes, the checkpoint's file had \d+\)/);
    // Same length, one byte changed near the end.
    expect(() => open(bytesOf(csvText(300, '').replace(/299,x\n$/, '299,y\n'))).restore(snap)).toThrow(/same size but other contents.*run the pipeline again from the start/);
    const same = open(bytesOf(csvText(300)));
    same.restore(snap);
    const rest = [];
    while (!same.done()) rest.push(...same.poll(50).elements);
    expect(rest.map((e) => e.row.n)).toEqual(Array.from({ length: 180 }, (_, i) => 120 + i));
    // A checkpoint from before files had an identity still resumes.
    const { file: _file, ...old } = snap.at;
    const older = open(bytesOf(csvText(300)));
    older.restore({ ...snap, at: old });
    expect(older.poll(1).elements[0].row.n).toBe(120);
  });

  it('JSON Lines and JSON arrays refuse another file too', () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => JSON.stringify({ i })).join('\n') + '\n';
    const first = jsonLinesReader(new StreamedLines(bytesOf(lines(100)), 64, 'a.jsonl'));
    first.read(40);
    const at = first.position!()!;
    expect(() => jsonLinesReader(new StreamedLines(bytesOf(lines(99)), 64, 'a.jsonl')).seek(40, at)).toThrow(/file "a.jsonl" is not the file/);
    const arr = (n: number) => `[\n${Array.from({ length: n }, (_, i) => JSON.stringify({ i })).join(',\n')}\n]\n`;
    const a = new JsonArrayReader(new StreamedLines(bytesOf(arr(50)), 64, 'a.json'));
    a.read(10);
    const pos = a.position()!;
    expect(() => new JsonArrayReader(new StreamedLines(bytesOf(arr(51)), 64, 'a.json')).seek(10, pos)).toThrow(/file "a.json" is not the file/);
    const b = new JsonArrayReader(new StreamedLines(bytesOf(arr(50)), 64, 'a.json'));
    b.seek(10, pos);
    expect(b.read(1).map((r) => r.value)).toEqual([{ i: 10 }]);
  });
});

