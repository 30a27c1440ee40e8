import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sealed as seal, unseal } from '../../../runtime/node/durableFiles.ts';

const bin = fileURLToPath(new URL('../../../../bin/weir.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'weir-restore-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

writeFileSync(join(dir, 'in.jsonl'), Array.from({ length: 20_000 }, (_, i) => `${JSON.stringify({ customer: `c${i % 50}`, amount: i % 7 })}\n`).join(''));
writeFileSync(
  join(dir, 'p.json'),
  JSON.stringify({
    format: 'weir/pipeline',
    version: 1,
    name: 'restore',
    nodes: [
      { id: 'visits', kind: 'fileSource', params: { schema: { customer: 'string', amount: 'number' } } },
      { id: 'spend', kind: 'aggregate', params: { groupBy: ['customer'], aggregates: [{ fn: 'sum', field: 'amount', as: 'total' }] } },
      { id: 'view', kind: 'viewSink', params: {} },
    ],
    edges: [
      { from: { node: 'visits', port: 'out' }, to: { node: 'spend', port: 'in' } },
      { from: { node: 'spend', port: 'out' }, to: { node: 'view', port: 'in' } },
    ],
  }),
);

const run = (stateDir: string, out: string, resume: boolean) =>
  spawnSync(process.execPath, [bin, 'run', join(dir, 'p.json'), '--input', `visits=${join(dir, 'in.jsonl')}`, '--out', out, '--parallelism', '2', '--checkpoint-interval', '20', '--state-dir', stateDir, ...(resume ? ['--resume'] : [])], {
    encoding: 'utf8',
    timeout: 120_000,
  });

describe('a checkpoint that reads back but does not restore in the threaded runtime', () => {
  it('is refused naming the checkpoint, the operator, its files and the way back to the earlier checkpoint, which then resumes exactly', () => {
    const clean = join(dir, 'clean');
    const first = run(clean, join(dir, 'out-clean'), false);
    expect(first.status, first.stderr).toBe(0);
    const job = join(clean, 'restore');
    const ids = readdirSync(job).flatMap((f) => /^manifest-(\d+)\.json$/.exec(f)?.slice(1) ?? []).map(Number).sort((a, b) => a - b);
    expect(ids.length, 'at least two retained checkpoints').toBeGreaterThanOrEqual(2);
    const latest = ids.at(-1)!;
    const previous = ids.at(-2)!;

    // Valid JSON with a damaged inside.
    const damaged = join(dir, 'damaged');
    cpSync(clean, damaged, { recursive: true });
    const name = `restore/chk-${latest}/spend%231.json`;
    const snap = join(damaged, name);
    const s = JSON.parse(readFileSync(snap, 'utf8')) as { keyed: { snapshot: { keyGroups: unknown } }; timers: unknown };
    s.keyed.snapshot.keyGroups = { 68: 'garbage' };
    s.timers = 5;
    const text = JSON.stringify(s);
    writeFileSync(snap, text);
    const manifest = join(damaged, 'restore', `manifest-${latest}.json`);

    // Edited bytes alone differ from the size and digest the manifest recorded: the read-back skips to the earlier checkpoint.
    const edited = join(dir, 'edited');
    cpSync(damaged, edited, { recursive: true });
    const skipped = run(edited, join(dir, 'out-edited'), true);
    expect(skipped.status, skipped.stderr).toBe(0);
    expect(skipped.stderr).toContain(`checkpoint ${latest} cannot be used: ${join(edited, name)}`);
    expect(skipped.stderr).toContain(`restoring checkpoint ${previous}`);

    // With the manifest agreeing (a writer that recorded what it wrote, but wrote it wrong) it passes the read-back and fails in the worker.
    const sealed = unseal(readFileSync(manifest, 'utf8'));
    if (!('body' in sealed)) throw new Error(sealed.problem);
    const m = JSON.parse(sealed.body) as { files: Record<string, { bytes: number; sha256: string }> };
    m.files[name] = { bytes: Buffer.byteLength(text), sha256: createHash('sha256').update(text).digest('hex') };
    writeFileSync(manifest, seal(JSON.stringify(m)));
    const refused = run(damaged, join(dir, 'out-refused'), true);
    expect(refused.status, refused.stderr).toBe(2);
    expect(refused.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
    expect(refused.stderr).toContain(`checkpoint ${latest} cannot be restored: operator "spend" (subtask `);
    expect(refused.stderr).toContain(snap);
    expect(refused.stderr).toContain(`to resume from the earlier checkpoint ${previous}, move ${manifest} out of the way and run with --resume again`);

    renameSync(manifest, join(dir, 'set-aside.json'));
    const resumed = run(damaged, join(dir, 'out-resumed'), true);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`restoring checkpoint ${previous}`);
    const view = (out: string) => readFileSync(join(dir, out, 'view.view.json'), 'utf8');
    expect(view('out-resumed')).toBe(view('out-clean'));
  });
});
