// Helpers for the CLI tests: a captured Io and a temporary directory with pipeline files.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Io } from './io.ts';
import { main } from './main.ts';

export interface Captured {
  code: number;
  out: string;
  err: string;
}

export async function runMain(argv: string[]): Promise<Captured> {
  let out = '';
  let err = '';
  const io: Io = { out: (t) => void (out += t + '\n'), err: (t) => void (err += t + '\n') };
  const code = await main(argv, io);
  return { code, out, err };
}

const made: string[] = [];

export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'weir-cli-'));
  made.push(dir);
  return dir;
}

/** For afterAll: removes every directory tempDir() made in this test file. */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export function writeJson(dir: string, name: string, value: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(value, null, 2));
  return file;
}

export function writeLines(dir: string, name: string, lines: string[]): string {
  const file = join(dir, name);
  writeFileSync(file, lines.map((l) => l + '\n').join(''));
  return file;
}

export const readJsonLines = (file: string): unknown[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));

export const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));

/** visits (fileSource) → spend per customer (aggregate) → view; plus a log of the raw visits. */
export const salesPipeline = (path?: string) => ({
  format: 'weir/pipeline',
  version: 1,
  name: 'spend per customer',
  nodes: [
    {
      id: 'visits',
      kind: 'fileSource',
      params: {
        ...(path ? { path } : {}),
        schema: { customer: 'string', amount: 'number', ts: 'timestamp' },
        eventTime: { field: 'ts', maxOutOfOrdernessMs: 1000 },
      },
    },
    { id: 'spend', kind: 'aggregate', params: { groupBy: ['customer'], aggregates: [{ fn: 'sum', field: 'amount', as: 'total' }, { fn: 'count', as: 'visits' }] } },
    { id: 'by_customer', kind: 'viewSink', params: {} },
    { id: 'raw', kind: 'logSink', params: {} },
  ],
  edges: [
    { from: { node: 'visits', port: 'out' }, to: { node: 'spend', port: 'in' } },
    { from: { node: 'spend', port: 'out' }, to: { node: 'by_customer', port: 'in' } },
    { from: { node: 'visits', port: 'out' }, to: { node: 'raw', port: 'in' } },
  ],
});

/** A generator-only pipeline whose output depends on the job seed. */
export const generatedPipeline = () => ({
  format: 'weir/pipeline',
  version: 1,
  name: 'generated orders',
  settings: { seed: 1 },
  nodes: [
    { id: 'orders', kind: 'generatorSource', params: { scenario: 'orders', count: 200, keys: 8, disorderMs: 500 } },
    { id: 'per_city', kind: 'aggregate', params: { groupBy: ['city'], aggregates: [{ fn: 'sum', field: 'amount', as: 'revenue' }] } },
    { id: 'revenue', kind: 'viewSink', params: {} },
  ],
  edges: [
    { from: { node: 'orders', port: 'out' }, to: { node: 'per_city', port: 'in' } },
    { from: { node: 'per_city', port: 'out' }, to: { node: 'revenue', port: 'in' } },
  ],
});
