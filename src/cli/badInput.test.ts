// The bad-input corpus: each case is a document or input that once validated and then hung,
// crashed or misled. Each asserts the exit code and a message that names where (node, field,
// line, file) and what to do. Durable-run cases are in durableRun.test.ts.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readJsonLines, removeTempDirs, runMain, salesPipeline, tempDir, writeJson, writeLines } from './cliTestKit.ts';
import { resolveStreamedInputs } from './inputs.ts';
import { loadPipeline } from './load.ts';
import { StreamedLines, type ByteInput } from '../core/lineSource.ts';

afterAll(removeTempDirs);

const windowPipeline = (window: Record<string, unknown>) => ({
  format: 'weir/pipeline',
  version: 1,
  name: 'windows',
  nodes: [
    { id: 'visits', kind: 'fileSource', params: { path: 'visits.jsonl', schema: { customer: 'string', amount: 'number', ts: 'timestamp' }, eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 } } },
    { id: 'per_window', kind: 'window', params: { groupBy: ['customer'], aggregates: [{ fn: 'count', as: 'n' }], ...window } },
    { id: 'out', kind: 'viewSink', params: {} },
  ],
  edges: [
    { from: { node: 'visits', port: 'out' }, to: { node: 'per_window', port: 'in' } },
    { from: { node: 'per_window', port: 'out' }, to: { node: 'out', port: 'in' } },
  ],
});

const visit = (i: number, extra: Record<string, unknown> = {}) => JSON.stringify({ customer: `c${i % 3}`, amount: i, ts: 1000 * i, ...extra });

async function validate(doc: unknown) {
  const dir = tempDir();
  writeLines(dir, 'visits.jsonl', [visit(1), visit(2), visit(3)]);
  return runMain(['validate', writeJson(dir, 'p.json', doc)]);
}

describe('validation holes', () => {
  it.each([
    [{ type: 'hop', sizeMs: 1e12, slideMs: 1 }, 'params.slideMs', /puts every record in 1000000000000 windows; at most 1000 are allowed/],
    [{ type: 'cumulate', sizeMs: 86_400_000, stepMs: 1 }, 'params.stepMs', /puts every record in 86400000 windows/],
    [{ type: 'tumble', sizeMs: 1e300 }, 'params.sizeMs', /longer than 100 years/],
    [{ type: 'tumble', sizeMs: 2 ** 53 + 2 }, 'params.sizeMs', /longer than 100 years/],
    [{ type: 'session', gapMs: 1e300 }, 'params.gapMs', /1e\+300 ms is longer than 100 years/],
    [{ type: 'tumble', sizeMs: 1000, allowedLatenessMs: 2 ** 60 }, 'params.allowedLatenessMs', /longer than 100 years/],
  ])('refuses the window %j, naming the node and %s', async (window, field, message) => {
    const r = await validate(windowPipeline(window));
    expect(r.code).toBe(1);
    const line = (r.out + r.err).split('\n').find((l) => l.includes(field)) ?? '';
    expect(line).toContain('per_window');
    expect(line).toMatch(message);
  });

  it('refuses sum over a string field, naming the field', async () => {
    const doc = salesPipeline('visits.jsonl');
    (doc.nodes[1].params as { aggregates: { fn: string; field?: string }[] }).aggregates[0].field = 'customer';
    const r = await validate(doc);
    expect(r.code).toBe(1);
    expect(r.out + r.err).toMatch(/spend.*params\.aggregates\[0\]\.field.*sum needs a number, but "customer" is a string/);
  });

  it('runs a node with a 10,000-character id, its file names bounded', async () => {
    const dir = tempDir();
    const id = 'v'.repeat(10_000);
    const doc = salesPipeline('visits.jsonl');
    doc.nodes[2].id = id;
    doc.edges[1].to.node = id;
    writeLines(dir, 'visits.jsonl', [visit(1), visit(2)]);
    const r = await runMain(['run', writeJson(dir, 'p.json', doc), '--out', join(dir, 'out')]);
    expect(r.code, r.err).toBe(0);
    const names = readdirSync(join(dir, 'out'));
    expect(names.every((n) => n.length <= 140)).toBe(true);
    expect(names.some((n) => n.startsWith('vvvv') && n.endsWith('.view.json'))).toBe(true);
  });
});

describe('input files', () => {
  it('confines params.path to the pipeline folder unless the file is given on the command line', async () => {
    const dir = tempDir();
    const r = await runMain(['run', writeJson(dir, 'p.json', salesPipeline('/etc/passwd')), '--out', join(dir, 'out')]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`fileSource "visits" params.path "/etc/passwd": /etc/passwd is outside the pipeline's folder`);
    expect(r.err).toContain('--input visits=/etc/passwd');
    const up = await runMain(['run', writeJson(dir, 'q.json', salesPipeline('../../etc/hostname')), '--out', join(dir, 'out')]);
    expect(up.code).toBe(1);
    expect(up.err).toContain('is outside the pipeline');
    const given = await runMain(['run', join(dir, 'p.json'), '--input', 'visits=/etc/hostname', '--out', join(dir, 'out')]);
    expect(given.code, given.err).toBe(0);
  });

  it('refuses devices and directories instead of hanging', async () => {
    const dir = tempDir();
    const p = writeJson(dir, 'p.json', salesPipeline());
    const zero = await runMain(['run', p, '--input', 'visits=/dev/zero', '--out', join(dir, 'out')]);
    expect(zero.code).toBe(1);
    expect(zero.err).toContain('fileSource "visits" --input /dev/zero: /dev/zero is a character device, not a regular file of JSON lines');
    const folder = await runMain(['run', p, '--input', `visits=${dir}`, '--out', join(dir, 'out')]);
    expect(folder.code).toBe(1);
    expect(folder.err).toContain('is a directory');
  });

  it('names the target of a symbolic link that leads out of the folder, and gives the --input hint only where --input would work', async () => {
    const dir = tempDir();
    symlinkSync('/etc/passwd', join(dir, 'visits.jsonl'));
    mkdirSync(join(dir, 'folder'));
    const linked = await runMain(['run', writeJson(dir, 'p.json', salesPipeline('visits.jsonl')), '--out', join(dir, 'out')]);
    expect(linked.code).toBe(1);
    expect(linked.err).toContain(`fileSource "visits" params.path "visits.jsonl": ${join(dir, 'visits.jsonl')} is a symbolic link to /etc/passwd, which is outside the pipeline's folder`);
    expect(linked.err).toContain(`--input visits=${join(dir, 'visits.jsonl')}`);
    // A device or a directory is refused on the command line too: no hint to name it there.
    for (const path of ['/dev/zero', 'folder']) {
      const r = await runMain(['run', writeJson(dir, 'q.json', salesPipeline(path)), '--out', join(dir, 'out')]);
      expect(r.code, path).toBe(1);
      expect(r.err, path).toMatch(/is a (character device|directory), not a regular file of JSON lines\n$/);
    }
  });

  it('splits CR-only line endings into lines', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'visits.jsonl'), [visit(1), visit(2), visit(3)].join('\r') + '\r');
    const r = await runMain(['run', writeJson(dir, 'p.json', salesPipeline('visits.jsonl')), '--out', join(dir, 'out')]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain('input visits: ');
    expect(r.err).toContain('(3 lines)');
    expect(existsSync(join(dir, 'out', 'visits.dead-letter.jsonl')) ? readFileSync(join(dir, 'out', 'visits.dead-letter.jsonl'), 'utf8') : '').toBe('');
  });

  it('reads a plain run\'s input in blocks of about 1 MB, never whole, with the same records and line numbers', async () => {
    const dir = tempDir();
    // 3.5 MB over four blocks: a BOM, CRLF endings, and a broken line in the last block.
    const lines = Array.from({ length: 40_000 }, (_, i) => (i === 39_000 ? '{"customer": broken' : visit(i, { note: 'x'.repeat(50) })));
    writeFileSync(join(dir, 'visits.jsonl'), '\uFEFF' + lines.join('\r\n') + '\r\n');
    const p = writeJson(dir, 'p.json', salesPipeline('visits.jsonl'));
    const { inputs, resolved } = resolveStreamedInputs(loadPipeline(p), p, new Map());
    expect(resolved).toEqual([{ nodeId: 'visits', file: join(dir, 'visits.jsonl'), lines: 40_000, records: 40_000 }]);
    const input = inputs.visits as ByteInput;
    let largest = 0;
    const read = input.bytes.read.bind(input.bytes);
    input.bytes.read = (start, end) => {
      const got = read(start, end);
      largest = Math.max(largest, got.length);
      return got;
    };
    const streamed = new StreamedLines(input.bytes);
    expect([streamed.line(0), streamed.line(39_000), streamed.line(39_999), streamed.line(40_000)]).toEqual([lines[0], lines[39_000], lines[39_999], undefined]);
    expect(largest).toBeLessThanOrEqual(1 << 20);
    const r = await runMain(['run', p, '--out', join(dir, 'out')]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain('(40000 lines)');
    expect(readJsonLines(join(dir, 'out', 'visits.dead-letter.jsonl'))).toMatchObject([{ line: 39_001, raw: '{"customer": broken' }]);
    expect(r.err).toMatch(/source visits \(fileSource\): 39999 records read, 1 dead-lettered/);
  });

  it('dead-letters a record nested 200,000 levels deep, saying so instead of "Maximum call stack size exceeded"', async () => {
    const dir = tempDir();
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    writeLines(dir, 'visits.jsonl', [visit(1), `{"customer":"a","amount":1,"ts":2000,"extra":${deep}}`, visit(3)]);
    const r = await runMain(['run', writeJson(dir, 'p.json', salesPipeline('visits.jsonl')), '--out', join(dir, 'out')]);
    expect(r.code, r.err).toBe(0);
    const dead = readJsonLines(join(dir, 'out', 'visits.dead-letter.jsonl')) as { line: number; reason: string }[];
    expect(dead.map((d) => d.line)).toEqual([2]);
    expect(dead[0].reason).toMatch(/^the record is nested too deeply to read \(its arrays and objects nest thousands of levels deep: .*\); flatten it$/);
  });

  it('dead-letters 1e999 and event times outside dates or not whole, with clear reasons', async () => {
    const dir = tempDir();
    const lines = ['{"customer":"a","amount":1e999,"ts":1000}', visit(2, { ts: 1e20 }), visit(3, { ts: -1e20 }), visit(4, { ts: 1.5 }), visit(5)];
    writeLines(dir, 'visits.jsonl', lines);
    const r = await runMain(['run', writeJson(dir, 'p.json', salesPipeline('visits.jsonl')), '--out', join(dir, 'out')]);
    expect(r.code, r.err).toBe(0);
    const dead = readJsonLines(join(dir, 'out', 'visits.dead-letter.jsonl')) as { line: number; reason: string }[];
    expect(dead.map((d) => d.line)).toEqual([1, 2, 3, 4]);
    expect(dead[0].reason).toContain('field "amount": expected number, got Infinity (a number beyond ±1.8e308, such as 1e999');
    expect(dead[1].reason).toContain('timestamp 100000000000000000000 is outside the range of dates');
    expect(dead[2].reason).toContain('timestamp -100000000000000000000 is outside the range of dates');
    expect(dead[3].reason).toContain('timestamp 1.5 is not a whole number of milliseconds');
  });
});
