import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { removeTempDirs, runMain, tempDir, writeJson } from './cliTestKit.ts';
import { splitRunFlags } from './runFlags.ts';
import { slowMapCode } from '../testing/exactlyOncePipelines.ts';

afterAll(removeTempDirs);

const bin = fileURLToPath(new URL('../../bin/weir.mjs', import.meta.url));

/**
 * generator → (slow, when `spinUs`) map → sum per city → view. The map keeps parallelism 1 so that
 * each city's records reach its aggregate subtask over one path, in one order: floating-point
 * sums then match to the last bit (through a parallel map they could be added in another order).
 */
const ordersPipeline = (count: number, spinUs = 0) => ({
  format: 'weir/pipeline',
  version: 1,
  name: 'city revenue',
  settings: { seed: 1 },
  nodes: [
    { id: 'orders', kind: 'generatorSource', params: { scenario: 'orders', count, keys: 40, disorderMs: 500 } },
    { id: 'work', kind: 'map', parallelism: 1, params: { code: slowMapCode(spinUs) } },
    { id: 'per_city', kind: 'aggregate', params: { groupBy: ['city'], aggregates: [{ fn: 'sum', field: 'amount', as: 'revenue' }, { fn: 'count', as: 'orders' }] } },
    { id: 'revenue', kind: 'viewSink', params: {} },
  ],
  edges: [
    { from: { node: 'orders', port: 'out' }, to: { node: 'work', port: 'in' } },
    { from: { node: 'work', port: 'out' }, to: { node: 'per_city', port: 'in' } },
    { from: { node: 'per_city', port: 'out' }, to: { node: 'revenue', port: 'in' } },
  ],
});

const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');

/** Changelog rows sorted stably by primary key: arrival order across parallel subtasks varies, a key's own order does not. */
function sortedChangelog(dir: string, pk: string): string[] {
  const lines = read(dir, 'revenue.changelog.jsonl').split('\n').filter((l) => l);
  const keyOf = (l: string) => String((JSON.parse(l) as { row: Record<string, unknown> }).row[pk]);
  return lines.map((l, i) => ({ l, i, k: keyOf(l) })).sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : a.i - b.i)).map((x) => x.l);
}

describe('weir run parallel flags', () => {
  it('are taken out of the arguments; without them the run stays in process', () => {
    expect(splitRunFlags(['p.json', '--out', 'o', '--seed', '3'])).toEqual({ flags: null, rest: ['p.json', '--out', 'o', '--seed', '3'] });
    expect(splitRunFlags(['p.json', '--parallelism=3', '--state', 'indexeddb', '--checkpoint-interval', '50', '--checkpoint-every-records', '500', '--state-dir', 's', '--resume', '--chaos', '2', '--out', 'o'])).toEqual({
      flags: { parallelism: 3, state: 'indexeddb', checkpointIntervalMs: 50, checkpointEveryRecords: 500, stateDir: 's', resume: true, chaos: 2 },
      rest: ['p.json', '--out', 'o'],
    });
    expect(() => splitRunFlags(['--parallelism', '9'])).toThrow(/--parallelism must be a whole number from 1 to 8, got "9"/);
    expect(() => splitRunFlags(['--state', 'rocksdb'])).toThrow(/--state must be memory or indexeddb/);
    expect(() => splitRunFlags(['--resume'])).toThrow(/--resume needs --state-dir/);
    expect(() => splitRunFlags(['--chaos'])).toThrow(/--chaos needs a value/);
  });

  it('--chaos 3 --seed 9 --parallelism 3 kills while records flow, during a snapshot write and during a recovery, and gives the output of the run without --chaos', async () => {
    const dir = tempDir();
    const file = writeJson(dir, 'p.json', ordersPipeline(3000));
    const run = async (out: string, ...extra: string[]) => {
      const r = await runMain(['run', file, '--out', join(dir, out), '--seed', '9', '--trust-code', ...extra]);
      expect(r.code, r.err).toBe(0);
      return r.err;
    };
    await run('single');
    await run('calm', '--parallelism', '3', '--checkpoint-interval', '20');
    const log = await run('chaos', '--parallelism', '3', '--checkpoint-interval', '20', '--chaos', '3', '--state', 'indexeddb');
    expect(log.match(/^chaos: killing \S+#\d/gm)).toHaveLength(3);
    // Seed 9 plans one kill in each phase.
    expect(log.match(/^chaos: killing \S+ (.*) \(/gm)?.map((l) => /killing \S+ (.*) \(/.exec(l)![1])).toEqual(['while records flow', "during a checkpoint's snapshot write", 'during the recovery']);
    expect(log).toMatch(/restarts: 3 \(recovery/);
    for (const out of ['calm', 'chaos']) {
      expect(read(join(dir, out), 'revenue.view.json'), out).toBe(read(join(dir, 'single'), 'revenue.view.json'));
      expect(sortedChangelog(join(dir, out), 'city'), out).toEqual(sortedChangelog(join(dir, 'single'), 'city'));
    }
  });

  it('--chaos counts and writes each dead letter once, as the run without kills does', async () => {
    const dir = tempDir();
    const doc = ordersPipeline(3000);
    doc.nodes[1] = { id: 'work', kind: 'map', parallelism: 1, params: { code: "(row) => { if (row.amount > 180) throw new Error('too big'); return row; }" } };
    const file = writeJson(dir, 'p.json', doc);
    const run = async (out: string, ...extra: string[]) => {
      const r = await runMain(['run', file, '--out', join(dir, out), '--seed', '7', '--trust-code', ...extra]);
      expect(r.code, r.err).toBe(0);
      return r.err;
    };
    const calm = await run('calm', '--parallelism', '3', '--checkpoint-interval', '20');
    const chaos = await run('chaos', '--parallelism', '3', '--checkpoint-interval', '20', '--chaos', '2');
    expect(chaos).toMatch(/restarts: 2 \(recovery/);
    const count = (log: string) => /dead letters: (\d+)/.exec(log)?.[1];
    expect(Number(count(calm))).toBeGreaterThan(10);
    expect(count(chaos)).toBe(count(calm));
    const lines = (out: string) => read(join(dir, out), 'work.dead-letter.jsonl').split('\n').filter((l) => l).sort();
    expect(lines('chaos')).toEqual(lines('calm'));
  });

  it('--resume after the process was killed (SIGKILL) gives the same final results', async () => {
    const dir = tempDir();
    const file = writeJson(dir, 'p.json', ordersPipeline(8000, 30));
    const state = join(dir, 'state');
    const args = ['run', file, '--trust-code', '--parallelism', '2', '--checkpoint-interval', '40', '--state-dir', state];
    const child = spawn(process.execPath, [bin, ...args, '--out', join(dir, 'killed')], { stdio: 'ignore' });
    const exited = new Promise<void>((r) => child.on('exit', () => r()));
    const manifests = join(state, encodeURIComponent('city revenue'));
    let killedEarly = false;
    for (;;) {
      if (existsSync(manifests) && readdirSync(manifests).some((f) => /^manifest-\d+\.json$/.test(f))) break;
      if (child.exitCode !== null) {
        killedEarly = true;
        break;
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    child.kill('SIGKILL');
    await exited;
    expect(killedEarly, 'the run ended before its first checkpoint; make the pipeline slower').toBe(false);
    expect(existsSync(join(dir, 'killed', 'revenue.view.json'))).toBe(false);
    const resumed = await runMain([...args, '--resume', '--out', join(dir, 'resumed')]);
    expect(resumed.code, resumed.err).toBe(0);
    expect(resumed.err).toMatch(/restoring from checkpoint \d+/);
    const clean = await runMain(['run', file, '--trust-code', '--out', join(dir, 'clean')]);
    expect(clean.code, clean.err).toBe(0);
    expect(read(join(dir, 'resumed'), 'revenue.view.json')).toBe(read(join(dir, 'clean'), 'revenue.view.json'));
    expect(sortedChangelog(join(dir, 'resumed'), 'city')).toEqual(sortedChangelog(join(dir, 'clean'), 'city'));
  });
});
