import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeTempDirs, runMain, tempDir } from './cliTestKit.ts';
import { durableFlags, outputOf, referenceInput, weirAsync, weirSync, writeReference, type Child } from './durableRunKit.ts';

afterAll(removeTempDirs);

// The reference run at a size a test can repeat dozens of times: 16,000 lines, 16 of them broken.
const LINES = referenceInput(16_000);
let dir: string;
let pipeline: string;
let clean: Record<string, string>;
const jobDir = (state: string) => join(state, 'spend%20per%20customer');

beforeAll(() => {
  dir = tempDir();
  pipeline = writeReference(dir, LINES);
  const r = weirSync([pipeline, '--out', join(dir, 'clean'), ...durableFlags(join(dir, 'clean-state'))]);
  expect(r.code, r.err).toBe(0);
  clean = outputOf(join(dir, 'clean'));
  expect(clean['visits.dead-letter.jsonl'].split('\n').filter(Boolean)).toHaveLength(16);
  // Nothing lost across its checkpoints: +I for the first visit of each of the 50 customers, -U/+U for every later one.
  expect(clean['by_customer.changelog.jsonl'].split('\n').filter(Boolean)).toHaveLength(50 + 2 * (LINES.length - 16 - 50));
  expect(r.err).toMatch(/checkpoints: (\d{2,}|[89]) completed/);
}, 60_000);

/** A run killed (SIGKILL) right after the `step`-th durable step of checkpoint `chk`. */
function killedRun(state: string, out: string, chk: number, step: number) {
  return weirSync([pipeline, '--out', out, ...durableFlags(state)], { WEIR_CRASH_AFTER: `chk-${chk}:${step}` });
}

/** The resumed run, in this process (a new process would only add start-up time). */
async function resume(state: string, out: string, extra: string[] = [], file = pipeline) {
  const r = await runMain(['run', file, '--out', out, ...durableFlags(state), '--resume', ...extra]);
  return { code: r.code, err: r.err };
}

describe('the commit protocol, killed after every step of one commit', () => {
  it('resumes to exactly the clean output from every crash point of checkpoint 2', async () => {
    const kinds = new Set<string>();
    // The killed runs are independent processes: a few at a time (most of each is start-up); the resumes run in turn.
    const AT_ONCE = 3;
    const started = new Map<number, Promise<Child>>();
    const killedAsync = (step: number) => {
      if (!started.has(step)) {
        const args = [pipeline, '--out', join(dir, `crash-out-${step}`), ...durableFlags(join(dir, `crash-${step}`))];
        started.set(step, weirAsync(args, { WEIR_CRASH_AFTER: `chk-2:${step}` }).done);
      }
      return started.get(step)!;
    };
    let step = 1;
    for (; step < 200; step++) {
      const state = join(dir, `crash-${step}`);
      const out = join(dir, `crash-out-${step}`);
      for (let ahead = step; ahead < step + AT_ONCE; ahead++) void killedAsync(ahead);
      const killed = await killedAsync(step);
      if (killed.code === 0) {
        await Promise.all(started.values());
        // checkpoint 2 has fewer steps: every point was hit (and it was not the run's last checkpoint)
        expect(killed.err).toMatch(/checkpoints: (\d{2,}|[3-9]) completed/);
        break;
      }
      expect(killed.signal, `crash point ${step}: ${killed.err}`).toBe('SIGKILL');
      kinds.add(/after ([a-z-]+)\)/.exec(killed.err)![1]);
      const r = await resume(state, out);
      expect(r.code, `crash point ${step}: ${r.err}`).toBe(0);
      expect(outputOf(out), `crash point ${step}`).toEqual(clean);
      rmSync(state, { recursive: true, force: true });
    }
    // snapshots, manifest, epoch data and commit markers: each written in four steps
    expect(step).toBeGreaterThan(20);
    expect([...kinds].sort()).toEqual(['fsync', 'fsync-dir', 'rename', 'write']);
  }, 600_000);
});

describe('two runs on one state directory', () => {
  it('refuses the second, naming the pid of the first, and the first stays exact', async () => {
    const state = join(dir, 'shared');
    killedRun(state, join(dir, 'x'), 2, 6);
    const first = weirAsync([pipeline, '--out', join(dir, 'first'), ...durableFlags(state), '--resume']);
    const lock = join(state, 'weir.lock');
    // the killed run left its lock behind: wait until the first resume has taken it over
    const holder = () => (existsSync(lock) ? readFileSync(lock, 'utf8') : '');
    while (!holder().includes(`"pid":${first.pid}`)) await new Promise((r) => setTimeout(r, 5));
    const second = await resume(state, join(dir, 'second'));
    const a = await first.done;
    expect(second.code).toBe(2);
    expect(second.err).toContain(`is in use by another weir run (pid ${first.pid}`);
    expect(a.code, a.err).toBe(0);
    expect(outputOf(join(dir, 'first'))).toEqual(clean);
    expect(existsSync(lock)).toBe(false);
    // and the directory is not damaged: a third run resumes to the same output
    expect((await resume(state, join(dir, 'third'))).code).toBe(0);
    expect(outputOf(join(dir, 'third'))).toEqual(clean);
  }, 120_000);

  it('lets exactly one of two resumes take over the lock of a killed run', async () => {
    const state = join(dir, 'stale');
    killedRun(state, join(dir, 'x2'), 2, 3);
    writeFileSync(join(state, 'weir.lock'), JSON.stringify({ pid: 2 ** 22 + 17, started: 'then' }));
    // The first resume holds the takeover guard until the second has found the dead lock too.
    const args = (i: number) => [pipeline, '--out', join(dir, `stale-out-${i}`), ...durableFlags(state), '--resume'];
    const first = weirAsync(args(0), { WEIR_LOCK_TAKEOVER_HOLD: 'go' });
    await until(() => readFileSync(join(state, 'weir.lock.takeover'), 'utf8').includes(`"pid":${first.pid}`));
    const second = weirAsync(args(1));
    await until(() => second.err().includes(`pid ${first.pid} is taking over a stale lock; waiting for it`));
    writeFileSync(join(state, 'go'), '');
    const [a, b] = await Promise.all([first.done, second.done]);
    expect(a.code, a.err).toBe(0);
    expect(a.err).toContain('taking over the lock of pid 4194321, which no longer runs');
    expect(outputOf(join(dir, 'stale-out-0'))).toEqual(clean);
    expect(b.code, b.err).toBe(2);
    expect(b.err).toContain(`is in use by another weir run (pid ${first.pid}`);
  }, 60_000);
});

/** A state directory of a run killed at the first write of checkpoint 3: checkpoint 2 and its output are committed. */
function killedAfterCheckpoint2(name: string): string {
  const state = join(dir, name);
  const r = killedRun(state, join(dir, `${name}-x`), 3, 1);
  expect(r.signal, r.err).toBe('SIGKILL');
  return state;
}

describe('damaged state directories', () => {
  it('falls back from a truncated latest manifest, says so, and emits nothing twice', async () => {
    const state = killedAfterCheckpoint2('torn-manifest');
    const manifest = join(jobDir(state), 'manifest-2.json');
    truncateSync(manifest, 40);
    const out = join(dir, 'torn-manifest-out');
    const r = await resume(state, out);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`--resume: checkpoint 2 cannot be used: ${manifest}:`);
    expect(r.err).toContain('--resume: restoring checkpoint 1');
    expect(r.err).toMatch(/output epoch files? committed after checkpoint 1 (is|are) rolled back/);
    expect(outputOf(out)).toEqual(clean);
  }, 60_000);

  it('falls back from an edited latest manifest that still parses, naming it, and emits nothing twice', async () => {
    const state = killedAfterCheckpoint2('edited-manifest');
    const manifest = join(jobDir(state), 'manifest-2.json');
    // One subtask's snapshot swapped for its snapshot of checkpoint 1: well-formed, but a mix of two checkpoints.
    const text = readFileSync(manifest, 'utf8');
    const edited = text.replace('/chk-2/spend%231.json', '/chk-1/spend%231.json');
    expect(edited).not.toBe(text);
    writeFileSync(manifest, edited);
    const out = join(dir, 'edited-manifest-out');
    const r = await resume(state, out);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`--resume: checkpoint 2 cannot be used: ${manifest}: the manifest is damaged (its SHA-256 differs from the one written with it)`);
    expect(r.err).toContain('--resume: restoring checkpoint 1');
    expect(outputOf(out)).toEqual(clean);
  }, 60_000);

  it('starts clean when the manifests are gone but committed epochs are left', async () => {
    const state = killedAfterCheckpoint2('no-manifests');
    for (const f of readdirSync(jobDir(state))) if (f.startsWith('manifest-')) rmSync(join(jobDir(state), f));
    const out = join(dir, 'no-manifests-out');
    const r = await resume(state, out);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/no completed checkpoint exists for "spend per customer" in .*; the \d+ output files committed by the earlier run are discarded .*; starting from the beginning/);
    expect(outputOf(out)).toEqual(clean);
  }, 60_000);

  it('refuses a truncated committed epoch file the checkpoint cannot rebuild, naming it', async () => {
    // Killed at the first write of checkpoint 5: checkpoints 1 to 4 and their output are committed.
    const state = join(dir, 'torn-epoch');
    expect(killedRun(state, join(dir, 'torn-epoch-x'), 5, 1).signal).toBe('SIGKILL');
    const folder = join(jobDir(state), 'committed', 'sink-by_customer');
    // The restored checkpoint (the latest) still holds its own epoch and can rebuild it, so the
    // damage must be in an earlier epoch. Which subtask committed rows in which epoch depends on
    // where the checkpoints fell (time can trigger one before any row reached a sink): take the
    // first committed file with rows from before the latest checkpoint.
    const latest = Math.max(...readdirSync(jobDir(state)).map((f) => Number(/^manifest-(\d+)\.json$/.exec(f)?.[1] ?? 0)));
    const epochOf = (f: string) => Number(/@(\d+)\.jsonl$/.exec(f)?.[1] ?? Infinity);
    const name = readdirSync(folder).filter((f) => f.endsWith('.jsonl') && epochOf(f) < latest).sort().find((f) => readFileSync(join(folder, f)).length > 0);
    expect(name, `no committed epoch file with rows before checkpoint ${latest} in ${folder}`).toBeDefined();
    const file = join(folder, name!);
    const size = readFileSync(file).length;
    truncateSync(file, Math.floor(size / 2));
    const r = await resume(state, join(dir, 'torn-epoch-out'));
    expect(r.code).toBe(2);
    expect(r.err).toContain(`--resume: committed output ${file} is damaged (it has ${Math.floor(size / 2)} bytes where ${size} were committed)`);
    expect(r.err).not.toMatch(/\n\s+at /);
  }, 60_000);

  it('writes a truncated committed epoch file again from the checkpoint that still holds it, saying so', async () => {
    const state = killedAfterCheckpoint2('torn-latest-epoch');
    const folder = join(jobDir(state), 'committed', 'sink-by_customer');
    // Epoch 2 was committed when checkpoint 2 completed; checkpoint 2 still holds its rows.
    const name = readdirSync(folder).filter((f) => f.endsWith('@2.jsonl')).find((f) => readFileSync(join(folder, f)).length > 0);
    expect(name, `no committed epoch 2 file with rows in ${folder}`).toBeDefined();
    const file = join(folder, name!);
    const size = readFileSync(file).length;
    truncateSync(file, Math.floor(size / 2));
    const out = join(dir, 'torn-latest-epoch-out');
    const r = await resume(state, out);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`--resume: committed output ${file} is damaged (it has ${Math.floor(size / 2)} bytes where ${size} were committed); checkpoint 2 still holds that output, so it is written again from there`);
    expect(outputOf(out)).toEqual(clean);
  }, 60_000);

  it('refuses a changed checkpoint snapshot by file, falling back to an older checkpoint', async () => {
    const state = killedAfterCheckpoint2('torn-snapshot');
    const snap = join(jobDir(state), 'chk-2', 'spend%231.json');
    // Still a well-formed snapshot of the same length, with one digit changed: only its checksum tells.
    const text = readFileSync(snap, 'utf8');
    const at = text.search(/[1-8]/);
    writeFileSync(snap, text.slice(0, at) + String(Number(text[at]) + 1) + text.slice(at + 1));
    const out = join(dir, 'torn-snapshot-out');
    const r = await resume(state, out);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`--resume: checkpoint 2 cannot be used: ${snap}: checkpoint data ${snap} is damaged (its SHA-256 differs from the one its manifest recorded)`);
    expect(outputOf(out)).toEqual(clean);
  }, 60_000);
});

describe('resume checks the pipeline and the input against the checkpoint', () => {
  it('refuses a changed aggregate (sum to max) naming the operator and the state, unless told to start it empty', async () => {
    const state = killedAfterCheckpoint2('changed-pipeline');
    const changedDir = tempDir();
    const changed = writeReference(changedDir, LINES, (p) => void ((p.nodes[1].params as { aggregates: { fn: string }[] }).aggregates[0].fn = 'max'));
    const r = await resume(state, join(dir, 'changed-out'), [], changed);
    expect(r.code).toBe(1);
    expect(r.err).toContain('--resume: checkpoint 2 does not fit this pipeline:');
    expect(r.err).toContain('operator "spend" (aggregate) changed incompatibly since the checkpoint: state "total" was sum');
    expect(r.err).toContain('now max');
    const allowed = await resume(state, join(dir, 'changed-out'), ['--allow-non-restored-state'], changed);
    expect(allowed.code, allowed.err).toBe(0);
    expect(allowed.err).toContain('operator "spend" (aggregate) changed incompatibly');
    expect(allowed.err).toContain('it starts with empty state');
    // Checkpoint 2 lies within the first 4,000 lines, so every customer visits again after it:
    // each total is the max of that customer's amounts (all equal), no sum leaked into it.
    const view = JSON.parse(readFileSync(join(dir, 'changed-out', 'by_customer.view.json'), 'utf8')) as { customer: string; total: number }[];
    expect(view).toHaveLength(50);
    for (const row of view) expect(row.total, row.customer).toBe(1 + (Number(row.customer.slice(1)) % 5));
  }, 60_000);

  it('refuses an input shorter than the checkpoint offset and one whose consumed prefix changed', async () => {
    const state = killedAfterCheckpoint2('changed-input');
    const shortDir = tempDir();
    const short = writeReference(shortDir, LINES.slice(0, 10));
    const r = await resume(state, join(dir, 'short-out'), [], short);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/--resume: the input of "visits" \(.*visits\.jsonl\) has 10 lines, but checkpoint 2 had already read \d+ lines/);
    const editedDir = tempDir();
    const edited = writeReference(editedDir, [LINES[0].replace('"amount":1', '"amount":2'), ...LINES.slice(1)]);
    const e = await resume(state, join(dir, 'edited-out'), [], edited);
    expect(e.code).toBe(1);
    expect(e.err).toMatch(/--resume: the first \d+ lines of the input of "visits" .* differ from the ones checkpoint 2 consumed/);
    // the original input still resumes
    expect((await resume(state, join(dir, 'orig-out'))).code).toBe(0);
    expect(outputOf(join(dir, 'orig-out'))).toEqual(clean);
  }, 60_000);

  it('says clearly that a read-only --state-dir, or a file, cannot be used (exit 2, no stack trace)', async () => {
    const r = weirSync([pipeline, '--out', join(dir, 'ro-out'), ...durableFlags('/sys')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/\nweir: --state-dir \/sys is not writable \(E[A-Z]+\): weir keeps its checkpoints and committed output there; make it writable or give another directory\n$/);
    // A file where the directory should be says so, not EEXIST.
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    const f = await runMain(['run', pipeline, '--out', join(dir, 'ro-out'), ...durableFlags(file)]);
    expect(f.code).toBe(2);
    expect(f.err).toContain(`weir: --state-dir ${file}: cannot create the directory: ${file} is a file, not a directory; give a directory weir may write in`);
  });
});

/** Resolves once `ok()` holds (a throw counts as not yet), polling every 20 ms for up to 30 s. */
async function until(ok: () => boolean): Promise<void> {
  const give = Date.now() + 30_000;
  for (;;) {
    try {
      if (ok()) return;
    } catch {
      // not there yet
    }
    if (Date.now() > give) throw new Error(`timed out waiting for ${ok}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
