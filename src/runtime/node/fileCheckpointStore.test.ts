import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkpointStoreSuite, manifestOf, sampleSnapshot, writeCheckpoint } from '../../checkpoint/storeBehaviour.suite.ts';
import { FileCheckpointStore } from './fileCheckpointStore.ts';
import { parseTagged, stringifyTagged } from './taggedJson.ts';

const root = mkdtempSync(join(tmpdir(), 'weir-ckpt-'));
let dirs = 0;
const freshDir = () => join(root, `s${++dirs}`);
afterAll(() => rmSync(root, { recursive: true, force: true }));

checkpointStoreSuite('FileCheckpointStore', async () => new FileCheckpointStore(freshDir()));

describe('FileCheckpointStore', () => {
  it('lays checkpoints out as one file per subtask plus a manifest written last', async () => {
    const dir = freshDir();
    const store = new FileCheckpointStore(dir);
    await store.commit(manifestOf('job/a b', 1, await writeCheckpoint(store, 'job/a b', 1)));
    const jobDir = join(dir, encodeURIComponent('job/a b'));
    expect(readdirSync(jobDir).sort()).toEqual(['chk-1', 'manifest-1.json']);
    expect(readdirSync(join(jobDir, 'chk-1')).sort()).toEqual(['op%230.json', 'op%231.json']);
  });

  it('after a kill, ignores torn checkpoints and half-written files, and cleans them up', async () => {
    const dir = freshDir();
    const before = new FileCheckpointStore(dir);
    const refs = await writeCheckpoint(before, 'job', 1);
    await before.commit(manifestOf('job', 1, refs));
    await writeCheckpoint(before, 'job', 2); // killed before its manifest
    // killed in the middle of writing manifest 3: only its temp file exists
    writeFileSync(join(dir, 'job', 'manifest-3.json.tmp-999-0'), '{"jobId":"jo');

    const after = new FileCheckpointStore(dir); // the resumed process
    expect((await after.latest('job'))?.checkpointId).toBe(1);
    expect((await after.list('job')).map((m) => m.checkpointId)).toEqual([1]);
    expect(await after.cleanupUncommitted('job')).toEqual([2]);
    expect(readdirSync(join(dir, 'job')).sort()).toEqual(['chk-1', 'manifest-1.json']);
    expect((await after.readSubtask(refs['op#0'])).counters.in).toBe(1);
  });

  it('abort removes an uncommitted checkpoint but never a committed one', async () => {
    const dir = freshDir();
    const store = new FileCheckpointStore(dir);
    await store.commit(manifestOf('job', 1, await writeCheckpoint(store, 'job', 1)));
    await writeCheckpoint(store, 'job', 2);
    await store.abort('job', 2);
    await store.abort('job', 1);
    expect(existsSync(join(dir, 'job', 'chk-2'))).toBe(false);
    expect(existsSync(join(dir, 'job', 'chk-1'))).toBe(true);
  });

  it('says storage is full on ENOSPC and keeps the last good checkpoint', async () => {
    const store = new FileCheckpointStore(freshDir());
    await store.commit(manifestOf('job', 3, await writeCheckpoint(store, 'job', 3)));
    const full = Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    (store as unknown as { writeAtomic: () => Promise<void> }).writeAtomic = () => Promise.reject(full);
    await expect(store.writeSubtask('job', 4, sampleSnapshot('op#0', 4))).rejects.toThrow(/storage is full.*last good checkpoint \(3\) is kept/);
    await expect(store.commit(manifestOf('job', 4, {}))).rejects.toThrow(/storage is full/);
    expect((await store.latest('job'))?.checkpointId).toBe(3);
  });

  it('trusts a snapshot file only while it matches the length and SHA-256 its manifest recorded', async () => {
    const dir = freshDir();
    const before = new FileCheckpointStore(dir);
    await before.commit(manifestOf('job', 1, await writeCheckpoint(before, 'job', 1)));
    const refs = await writeCheckpoint(before, 'job', 2);
    await before.commit(manifestOf('job', 2, refs));
    // Changed outside weir, yet still a well-formed snapshot: the same length, one digit different.
    const file = join(dir, refs['op#0']);
    const text = readFileSync(file, 'utf8');
    const edited = text.replace('"in":2', '"in":7');
    expect(edited).not.toBe(text);
    writeFileSync(file, edited);
    const after = new FileCheckpointStore(dir); // the resumed process knows only what the manifests say
    const { usable, skipped } = await after.inspect('job');
    expect(usable?.checkpointId).toBe(1);
    expect(skipped).toEqual([{ checkpointId: 2, file, reason: `checkpoint data ${file} is damaged (its SHA-256 differs from the one its manifest recorded); the checkpoint cannot be restored` }]);
    writeFileSync(file, text.slice(0, text.length - 1) + ' }');
    await expect(new FileCheckpointStore(dir).inspect('job')).resolves.toMatchObject({ skipped: [{ reason: expect.stringContaining(`it has ${text.length + 1} bytes where ${text.length} were written`) }] });
  });

  it('trusts a manifest only while it matches its own length and SHA-256: an edited or cut manifest is skipped, by file', async () => {
    const dir = freshDir();
    const before = new FileCheckpointStore(dir);
    await before.commit(manifestOf('job', 1, await writeCheckpoint(before, 'job', 1)));
    await before.commit(manifestOf('job', 2, await writeCheckpoint(before, 'job', 2)));
    const file = join(dir, 'job', 'manifest-2.json');
    const text = readFileSync(file, 'utf8');
    // Still well-formed, with one snapshot reference pointing at checkpoint 1's file: only the manifest's own checksum tells.
    const edited = text.replace('chk-2/op%230.json', 'chk-1/op%230.json');
    expect(edited).not.toBe(text);
    writeFileSync(file, edited);
    const { usable, skipped } = await new FileCheckpointStore(dir).inspect('job');
    expect(usable?.checkpointId).toBe(1);
    expect(skipped).toEqual([{ checkpointId: 2, file, reason: 'the manifest is damaged (its SHA-256 differs from the one written with it)' }]);
    // Cut inside its checksum line, and cut after its first line: both found, neither read.
    writeFileSync(file, text.slice(0, text.length - 10));
    await expect(new FileCheckpointStore(dir).inspect('job')).resolves.toMatchObject({ usable: { checkpointId: 1 }, skipped: [{ file, reason: expect.stringMatching(/^the manifest is damaged \(its length and checksum line is unreadable/) }] });
    writeFileSync(file, text.slice(0, text.indexOf('\n') + 1));
    await expect(new FileCheckpointStore(dir).latest('job')).resolves.toMatchObject({ checkpointId: 1 });
    await expect(new FileCheckpointStore(dir).inspect('job')).resolves.toMatchObject({ skipped: [{ reason: expect.stringContaining('it has no length and checksum line') }] });
  });

  it('rejects references that point outside the store', async () => {
    const store = new FileCheckpointStore(freshDir());
    await expect(store.readSubtask('../../etc/passwd')).rejects.toThrow(/not one of this store/);
    await expect(store.readSubtask('job/chk-1/../../x.json')).rejects.toThrow(/not one of this store/);
  });
});

describe('tagged JSON', () => {
  it('keeps what structured clone keeps', () => {
    const v = {
      m: new Map<unknown, unknown>([[1, new Set(['a'])], ['k', { deep: [NaN, Infinity, -Infinity, undefined] }]]),
      d: new Date(5),
      big: 12n,
      f64: new Float64Array([1.5, -2]),
      tricky: { $w: 'map', v: 1 },
      sparse: [1, , 3],
    };
    expect(parseTagged(stringifyTagged(v))).toEqual(v);
  });

  it('refuses functions with the path where they were found', () => {
    expect(() => stringifyTagged({ a: [{ f: () => 1 }] })).toThrow(/function.*\$\.a\[0\]\.f/);
  });
});
