import { expect } from 'vitest';
import type { OperatorHarness } from './harness.ts';
import type { Row, RowKind } from '../core/types.ts';

/** One input of a scripted run: a record (with port, time and kind) or a watermark. */
export type Step = { row: Row; kind?: RowKind; ts?: number | null; port?: string } | { wm: number; port?: string };

export function play(h: OperatorHarness, steps: readonly Step[]): void {
  for (const s of steps) {
    if ('wm' in s) h.processWatermark(s.wm, s.port);
    else h.processElement(s.row, { kind: s.kind, ts: s.ts, port: s.port });
  }
}

/**
 * Runs `steps` once uninterrupted and once snapshotted and restored into a fresh operator at
 * every `cuts` position, and expects the restored runs to continue exactly like the whole one.
 */
export function expectRestoreMatches(make: () => OperatorHarness, steps: readonly Step[], cuts: readonly number[], ports: readonly string[] = ['out']): OperatorHarness {
  const whole = make();
  play(whole, steps);
  for (const cut of cuts) {
    const first = make();
    play(first, steps.slice(0, cut));
    const restored = first.restored(first.snapshot());
    play(restored, steps.slice(cut));
    for (const port of ports) expect(restored.lines(port), `cut at ${cut}, port ${port}`).toEqual(whole.lines(port).slice(first.output(port).length));
    expect(restored.deadLetters, `cut at ${cut}`).toEqual(whole.deadLetters.slice(first.deadLetters.length));
  }
  return whole;
}
