import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Io } from './io.ts';
import { main } from './main.ts';
import { readJson, readJsonLines, removeTempDirs, runMain, salesPipeline, tempDir, writeJson, writeLines } from './cliTestKit.ts';

afterAll(removeTempDirs);

const bin = fileURLToPath(new URL('../../bin/weir.mjs', import.meta.url));

/** salesPipeline plus a tumbling 1 s count per customer, so that output also waits on the watermark. */
const windowedSales = () => {
  const p = salesPipeline();
  p.nodes.push(
    { id: 'per_sec', kind: 'window', params: { type: 'tumble', sizeMs: 1000, groupBy: ['customer'], aggregates: [{ fn: 'count', as: 'n' }] } } as never,
    { id: 'counts', kind: 'logSink', params: {} },
  );
  p.edges.push({ from: { node: 'visits', port: 'out' }, to: { node: 'per_sec', port: 'in' } }, { from: { node: 'per_sec', port: 'out' }, to: { node: 'counts', port: 'in' } });
  return p;
};

const visits = [
  '{"customer":"ann","amount":3,"ts":1000}',
  '{"customer":"bob","amount":2,"ts":1400}',
  'not json',
  '{"customer":"ann","amount":4,"ts":3500}',
  '{"customer":"cy","amount":"lots","ts":3600}',
  '{"customer":"bob","amount":1,"ts":5200}',
];

type Line = { sink?: string; deadLetter?: string; kind?: string; row?: Record<string, unknown>; line?: number };

/** The file-based run of the same data: what the streamed lines must add up to. */
async function fileRun(pipeline: string, dir: string) {
  const out = join(dir, 'file-out');
  const r = await runMain(['run', pipeline, '--input', `visits=${writeLines(dir, 'visits.jsonl', visits)}`, '--out', out]);
  expect(r.code, r.err).toBe(0);
  return { out, changelog: (sink: string) => readJsonLines(join(out, `${sink}.changelog.jsonl`)), dead: readJsonLines(join(out, 'visits.dead-letter.jsonl')) };
}

const splitStreamed = (lines: Line[]) => ({
  changelog: (sink: string) => lines.filter((l) => l.sink === sink).map(({ kind, row }) => ({ kind, row })),
  dead: lines.filter((l) => l.deadLetter === 'visits').map(({ deadLetter: _, ...rest }) => rest),
});

describe('weir run --input id=- --out - (a live run)', () => {
  it('writes results to stdout while stdin is still open, and ends equal to the file run', async () => {
    const dir = tempDir();
    const pipeline = writeJson(dir, 'p.json', windowedSales());
    const child = spawn(process.execPath, [bin, 'run', pipeline, '--input', 'visits=-', '--out', '-'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t));
    child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const lines = (): Line[] => stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
    const waitFor = async (what: string, ok: (ls: Line[]) => boolean) => {
      for (let waited = 0; !ok(lines()); waited += 25) {
        if (waited > 30_000) throw new Error(`timed out waiting for ${what}; stdout so far:\n${stdout}\nstderr:\n${stderr}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    };
    // A half line first: nothing may come of it until its newline arrives.
    child.stdin.write(visits[0].slice(0, 10));
    await new Promise((r) => setTimeout(r, 300));
    child.stdin.write(visits[0].slice(10) + '\n' + visits[1] + '\n');
    await waitFor('the first two aggregate rows', (ls) => ls.filter((l) => l.sink === 'by_customer').length === 2);
    expect(lines().filter((l) => l.sink === 'counts')).toEqual([]);
    child.stdin.write(visits.slice(2, 5).join('\n') + '\n');
    // ts 3500 moves the watermark past 1999: the window [1000, 2000) fires before stdin closes.
    await waitFor('the first window', (ls) => ls.some((l) => l.sink === 'counts'));
    await waitFor('the dead letters', (ls) => ls.filter((l) => l.deadLetter).length === 2);
    expect(lines().filter((l) => l.sink === 'counts').map((l) => l.row)).toEqual([
      { customer: 'ann', window_start: 1000, window_end: 2000, window_time: 1999, n: 1 },
      { customer: 'bob', window_start: 1000, window_end: 2000, window_time: 1999, n: 1 },
    ]);
    expect(child.exitCode).toBe(null);
    child.stdin.end(visits[5] + '\n');
    expect(await exited, stderr).toBe(0);
    const streamed = splitStreamed(lines());
    const file = await fileRun(pipeline, dir);
    for (const sink of ['by_customer', 'raw', 'counts']) expect(streamed.changelog(sink)).toEqual(file.changelog(sink));
    expect(streamed.dead).toEqual(file.dead);
    expect(streamed.dead.map((d) => d.line)).toEqual([3, 5]);
    expect(stderr).toMatch(/input visits: standard input \(streaming\)/);
    expect(stderr).toMatch(/source visits \(fileSource\): 4 records read, 2 dead-lettered/);
  }, 60_000);
});

/** Runs main() in-process with stdin/stdout streams; stdin gets `chunks` then ends. */
async function runLive(argv: string[], chunks: string[]) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let out = '';
  let err = '';
  stdout.setEncoding('utf8').on('data', (t: string) => (out += t));
  const io: Io = { out: (t) => void (out += t + '\n'), err: (t) => void (err += t + '\n'), stdin, stdout };
  const done = main(argv, io);
  for (const c of chunks) {
    stdin.write(c);
    await new Promise((r) => setTimeout(r, 5));
  }
  stdin.end();
  const code = await done;
  return { code, out, err };
}

describe('weir run with standard input and output', () => {
  it('streams stdin into an --out directory with the same files as the file run', async () => {
    const dir = tempDir();
    const pipeline = writeJson(dir, 'p.json', windowedSales());
    const out = join(dir, 'live-out');
    const text = visits.join('\n') + '\n';
    const r = await runLive(['run', pipeline, '--input', 'visits=-', '--out', out], [text.slice(0, 17), text.slice(17, 90), text.slice(90)]);
    expect(r.code, r.err).toBe(0);
    const file = await fileRun(pipeline, dir);
    for (const name of ['by_customer.changelog.jsonl', 'counts.changelog.jsonl', 'raw.changelog.jsonl', 'visits.dead-letter.jsonl']) {
      expect(readJsonLines(join(out, name)), name).toEqual(readJsonLines(join(file.out, name)));
    }
    expect(readJson(join(out, 'by_customer.view.json'))).toEqual(readJson(join(file.out, 'by_customer.view.json')));
  });

  it('splits CR-only line endings on standard input into lines, as in a file, with the same dead letters', async () => {
    const dir = tempDir();
    const pipeline = writeJson(dir, 'p.json', windowedSales());
    const out = join(dir, 'cr-out');
    const text = visits.join('\r') + '\r';
    // The first chunk ends in the middle of the input, right after a CR.
    const cut = text.indexOf('\r', 50) + 1;
    const r = await runLive(['run', pipeline, '--input', 'visits=-', '--out', out], [text.slice(0, cut), text.slice(cut)]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/source visits \(fileSource\): 4 records read, 2 dead-lettered/);
    const file = await fileRun(pipeline, dir);
    expect(readJsonLines(join(out, 'visits.dead-letter.jsonl'))).toEqual(file.dead);
    expect(readJson(join(out, 'by_customer.view.json'))).toEqual(readJson(join(file.out, 'by_customer.view.json')));
  });

  it('writes a file run to stdout with --out -', async () => {
    const dir = tempDir();
    const pipeline = writeJson(dir, 'p.json', salesPipeline());
    const r = await runLive(['run', pipeline, '--input', `visits=${writeLines(dir, 'v.jsonl', visits.slice(0, 2))}`, '--out', '-'], []);
    expect(r.code, r.err).toBe(0);
    expect(r.out.split('\n').filter(Boolean).map((l) => JSON.parse(l))).toEqual([
      { sink: 'raw', kind: '+I', row: { customer: 'ann', amount: 3, ts: 1000 } },
      { sink: 'raw', kind: '+I', row: { customer: 'bob', amount: 2, ts: 1400 } },
      { sink: 'by_customer', kind: '+I', row: { customer: 'ann', total: 3, visits: 1 } },
      { sink: 'by_customer', kind: '+I', row: { customer: 'bob', total: 2, visits: 1 } },
    ]);
    expect(r.err).toMatch(/results in standard output/);
  });

  it('refuses --resume with a stdin input, and two sources on stdin', async () => {
    const dir = tempDir();
    const pipeline = writeJson(dir, 'p.json', salesPipeline());
    const resumed = await runLive(['run', pipeline, '--input', 'visits=-', '--out', join(dir, 'o'), '--state-dir', join(dir, 's'), '--resume'], []);
    expect(resumed.code).toBe(1);
    expect(resumed.err).toMatch(/--input visits=- with --resume: standard input cannot be replayed.*give --input visits=<file\.jsonl>/);
    const two = writeJson(dir, 'two.json', {
      ...salesPipeline(),
      nodes: [...salesPipeline().nodes, { id: 'more', kind: 'fileSource', params: { schema: { customer: 'string' } } }, { id: 'more_log', kind: 'logSink', params: {} }],
      edges: [...salesPipeline().edges, { from: { node: 'more', port: 'out' }, to: { node: 'more_log', port: 'in' } }],
    });
    const r = await runLive(['run', two, '--input', 'visits=-', '--input', 'more=-', '--out', '-'], []);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/--input visits, more: only one source can read standard input/);
  });
});
