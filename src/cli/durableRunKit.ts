// Helpers for the durable-run tests: the reference pipeline (visits → sum and count per customer
// → view) with broken lines, and `weir run` as a child process that can really be killed.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { salesPipeline, writeJson } from './cliTestKit.ts';

const bin = fileURLToPath(new URL('../../bin/weir.mjs', import.meta.url));

export interface Child {
  code: number | null;
  signal: string | null;
  err: string;
}

/** The reference input: `n` visits over 50 customers, every 1000th line (from line 8) broken. */
export function referenceInput(n: number): string[] {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(i % 1000 === 7 ? '{"customer": broken' : JSON.stringify({ customer: `c${i % 50}`, amount: 1 + (i % 5), ts: 1_700_000_000_000 + i }));
  return lines;
}

/** Writes the reference pipeline (without its log sink) and input into `dir`; returns the pipeline file. */
export function writeReference(dir: string, lines: string[], change?: (p: ReturnType<typeof salesPipeline>) => void): string {
  const p = salesPipeline('visits.jsonl');
  p.nodes = p.nodes.filter((n) => n.id !== 'raw');
  p.edges = p.edges.filter((e) => e.to.node !== 'raw');
  change?.(p);
  writeFileSync(join(dir, 'visits.jsonl'), lines.map((l) => l + '\n').join(''));
  return writeJson(dir, 'p.json', p);
}

/**
 * A checkpoint at most every 2,000 input records, whatever the speed of the machine: the
 * reference input always has 8 or more, checkpoint 2 always lies within its first 4,000 lines,
 * so every crash point of checkpoint 2 and of checkpoint 3 is reached.
 */
export const RECORDS_PER_CHECKPOINT = 2000;
export const durableFlags = (stateDir: string) => ['--parallelism', '2', '--checkpoint-interval', '1', '--checkpoint-every-records', String(RECORDS_PER_CHECKPOINT), '--state-dir', stateDir];

export function weirSync(args: string[], env: Record<string, string> = {}): Child {
  const r = spawnSync(process.execPath, [bin, 'run', ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
  return { code: r.status, signal: r.signal, err: r.stderr };
}

export function weirAsync(args: string[], env: Record<string, string> = {}): { done: Promise<Child>; pid: number; err: () => string } {
  const child = spawn(process.execPath, [bin, 'run', ...args], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const done = new Promise<Child>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, err })));
  return { done, pid: child.pid!, err: () => err };
}

/** Everything a run wrote that must equal the clean run's: changelog, view and dead letters. */
export function outputOf(out: string): Record<string, string> {
  const files = ['by_customer.changelog.jsonl', 'by_customer.view.json', 'visits.dead-letter.jsonl'];
  return Object.fromEntries(files.map((f) => [f, readFileSync(join(out, f), 'utf8')]));
}
