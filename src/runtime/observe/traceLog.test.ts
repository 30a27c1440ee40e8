import { describe, expect, it } from 'vitest';
import { TraceLog } from './traceLog.ts';

describe('TraceLog', () => {
  // Reads in steps 3, 7, 7 (no new trace), 12 and 20 made traces 1–4, 5–6, 7–10 and 11–12.
  const log = () => {
    const l = new TraceLog();
    for (const [step, seq] of [[3, 4], [7, 6], [7, 6], [12, 10], [20, 12]]) l.note(step, seq);
    return l;
  };

  it('names the read that made the oldest trace still shown at a point', () => {
    // At step 12 traces 1–10 exist; the newest 5 are 6–10: trace 6 was made in step 7.
    expect(log().startFor(12, 5)).toBe(7);
    expect(log().startFor(19, 5)).toBe(7);
    // At step 20 the newest 5 are 8–12, made from step 12 on; the newest 2 in step 20.
    expect(log().startFor(20, 5)).toBe(12);
    expect(log().startFor(25, 2)).toBe(20);
    // The list holds more than were made: from the first read.
    expect(log().startFor(12, 50)).toBe(3);
  });

  it('before the first trace, a replay makes none up to the point', () => {
    expect(log().startFor(2, 5)).toBe(3);
    expect(new TraceLog().startFor(40, 5)).toBe(41);
  });
});
