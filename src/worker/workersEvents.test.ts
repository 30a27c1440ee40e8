import { describe, expect, it } from 'vitest';
import { ManagerLog, readManagerLine } from './workersEvents.ts';

describe('ManagerLog', () => {
  it('words the job manager\'s restarts as the in-process run does', () => {
    const log = new ManagerLog();
    expect(log.line('attempt 1: 2 workers deployed in 40 ms')?.level).toBe('info');
    expect(log.line('restart 1 in 100 ms after: subtask sales#1 was killed (worker 1 terminated)')).toEqual({ level: 'error', message: 'job failed: subtask sales#1 was killed (worker 1 terminated)', node: 'sales' });
    expect(log.line('attempt 2: restoring from checkpoint 3')).toEqual({ level: 'warn', message: 'job restarted from checkpoint 3 (attempt 2)' });
    expect(log.restoredFrom).toBe(3);
    expect(log.line('attempt 2: 2 workers deployed in 30 ms')?.level).toBe('info');
    // An attempt that restored nothing started from the beginning: its counters are not a checkpoint's.
    expect(log.line('attempt 3: 2 workers deployed in 30 ms')).toEqual({ level: 'warn', message: 'job restarted from the beginning (no checkpoint yet) (attempt 3)' });
    expect(log.restoredFrom).toBeNull();
  });

  it('says a first attempt that restored resumed, and reads aborted checkpoints', () => {
    expect(new ManagerLog().line('attempt 1: restoring from checkpoint 7')).toEqual({ level: 'info', message: 'resumed from checkpoint 7' });
    expect(readManagerLine('checkpoint 4 aborted: timed out')).toEqual({ t: 'aborted', checkpointId: 4, reason: 'timed out' });
  });
});
