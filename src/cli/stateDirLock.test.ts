import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockStateDir } from './stateDirLock.ts';

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function stateDirHeldBy(pid: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'weir-lock-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'weir.lock'), JSON.stringify({ pid, started: 'earlier' }) + '\n');
  return dir;
}

/**
 * A real zombie: `sh` starts a short `sleep` in the background, prints its pid and becomes a long
 * `sleep`, which never reaps it, so the short one stays exited-but-unreaped (state Z). (It must
 * outlive the exec: `sh` itself reaps a child that ends before.)
 */
async function zombiePid(): Promise<{ pid: number }> {
  const parent = spawn('sh', ['-c', 'sleep 0.2 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(parent);
  const pid = await new Promise<number>((resolve) => parent.stdout!.once('data', (b: Buffer) => resolve(Number(String(b).trim()))));
  for (let i = 0; i < 300; i++) {
    if (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z')) return { pid };
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`pid ${pid} did not become a zombie`);
}

describe.runIf(process.platform === 'linux')('state-dir lock and the holder pid', () => {
  it('takes over a lock whose holder is an unreaped zombie', async () => {
    const { pid } = await zombiePid();
    const dir = stateDirHeldBy(pid);
    const notices: string[] = [];
    const release = lockStateDir(dir, (l) => notices.push(l));
    expect(notices.join('\n')).toContain(`pid ${pid}, which no longer runs`);
    expect(JSON.parse(readFileSync(join(dir, 'weir.lock'), 'utf8')).pid).toBe(process.pid);
    release();
  });

  it('still refuses, naming the pid, when the holder runs', async () => {
    const live = spawn('sleep', ['30'], { stdio: 'ignore' });
    children.push(live);
    const dir = stateDirHeldBy(live.pid!);
    expect(() => lockStateDir(dir, () => {})).toThrow(`pid ${live.pid}`);
  });
});
