import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BLOCK_BYTES, inputLines } from '../../core/lineSource.ts';
import { openFileInput } from './fileBytes.ts';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('an --input file on a parallel run', () => {
  it('is read in blocks of about BLOCK_BYTES, never whole', () => {
    dir = mkdtempSync(join(tmpdir(), 'weir-filebytes-'));
    const path = join(dir, 'orders.csv');
    const count = 200_000;
    writeFileSync(path, Array.from({ length: count }, (_, i) => `${i},customer-${i % 50},${i % 7}`).join('\n') + '\n');
    const size = statSync(path).size;
    expect(size).toBeGreaterThan(3 * BLOCK_BYTES);

    // The same opening the worker platform uses, with its reads recorded.
    const opened = openFileInput({ name: 'orders.csv', path, size, lineCount: count });
    const reads: number[] = [];
    const lines = inputLines({
      name: opened.name,
      bytes: { size: opened.bytes.size, read: (s, e) => { const b = opened.bytes.read(s, e); reads.push(b.length); return b; } },
    });
    let n = 0;
    while (lines.line(n) !== undefined) n++;

    expect(n).toBe(count);
    expect(lines.line(count - 1)).toBe(`${count - 1},customer-${(count - 1) % 50},${(count - 1) % 7}`);
    expect(reads.length).toBeGreaterThan(2);
    expect(Math.max(...reads)).toBeLessThanOrEqual(BLOCK_BYTES);
    expect(reads.reduce((a, b) => a + b, 0)).toBeLessThan(2 * size);
  });
});
