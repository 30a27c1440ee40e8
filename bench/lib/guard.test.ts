import { describe, expect, it } from 'vitest';
import { TimedOut, failedFigures, figuresOf, withTimeout } from './guard.ts';
import { FIGURES, meets } from '../figures.ts';
import { renderReport } from '../report.ts';

describe('suite guard', () => {
  it('a suite that never settles times out with its reason', async () => {
    await expect(withTimeout(20, () => new Promise(() => undefined))).rejects.toBeInstanceOf(TimedOut);
    await expect(withTimeout(20, () => new Promise(() => undefined))).rejects.toThrow('timed out after 0 s');
    expect(await withTimeout(1000, async () => 7)).toBe(7);
  });

  it("a failed suite's figures read failed with the reason, miss their targets, and the report names the failure", () => {
    const figs = failedFigures('nexmark.q5', figuresOf(['nexmark.q5.']), 'timed out after 600 s');
    expect(figs['nexmark.q5.eventsPerSecPerCore']).toBe('failed: timed out after 600 s');
    expect(figs['bench.failed.nexmark.q5']).toBe('timed out after 600 s');
    const fig = FIGURES.find((f) => f.name === 'nexmark.q5.eventsPerSecPerCore')!;
    expect(meets(fig, figs[fig.name])).toBe(false);
    const report = renderReport({ results: figs, mode: 'quick', sizes: {}, machine: 'm', optimizations: '', durationSec: 1 });
    expect(report).toContain('`nexmark.q5` (timed out after 600 s)');
    expect(report).toContain('failed: timed out after 600 s');
  });
});
