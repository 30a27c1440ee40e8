import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { outputPaths, runModeOf } from './output.ts';

const dir = '/repo/bench';

describe('bench output paths', () => {
  it('only a full run of every suite writes bench/results.json and bench/report.md', () => {
    const p = outputPaths(dir, runModeOf([]));
    expect(p).toEqual({ full: true, results: join(dir, 'results.json'), report: join(dir, 'report.md'), base: [] });
  });

  it('a --quick run writes to the ignored partial folder', () => {
    const p = outputPaths(dir, runModeOf(['--quick']));
    expect(p.full).toBe(false);
    expect(p.results).toBe(join(dir, 'partial', 'results.json'));
    expect(p.report).toBe(join(dir, 'partial', 'report.md'));
    expect(p.base).toEqual([]);
  });

  it('--only, at full or quick size, never overwrites the full run and merges into the partial figures', () => {
    for (const argv of [['--only=latency,nexmark'], ['--quick', '--only=latency']]) {
      const p = outputPaths(dir, runModeOf(argv));
      expect(p.full, argv.join(' ')).toBe(false);
      expect(p.results).not.toBe(join(dir, 'results.json'));
      expect(p.report).not.toBe(join(dir, 'report.md'));
      expect(p.base[0]).toBe(p.results);
    }
    // At full size the committed run may fill in the figures not re-measured; it is read, not written.
    expect(outputPaths(dir, runModeOf(['--only=latency'])).base).toEqual([join(dir, 'partial', 'results.json'), join(dir, 'results.json')]);
    expect(outputPaths(dir, runModeOf(['--quick', '--only=latency'])).base).toEqual([join(dir, 'partial', 'results.json')]);
    expect(runModeOf(['--only=latency,nexmark']).only).toEqual(['latency', 'nexmark']);
    expect(() => runModeOf(['--only='])).toThrow(/name the suites/);
    expect(() => runModeOf(['--only'])).toThrow(/name the suites/);
  });

  it('the partial folder is ignored by git', async () => {
    const { readFileSync } = await import('node:fs');
    const ignored = readFileSync(new URL('../.gitignore', import.meta.url), 'utf8').split('\n');
    expect(ignored).toContain('bench/partial/');
  });
});
