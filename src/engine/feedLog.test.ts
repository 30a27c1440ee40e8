import { describe, expect, it } from 'vitest';
import { FeedDecoder } from './formats/feedMessages.ts';
import { FeedBufferFull, FeedLog } from './feedLog.ts';
import type { FeedLogOptions } from './feedLog.ts';

const log = (o: Partial<FeedLogOptions> = {}) => new FeedLog({ name: 'live feed "f"', decoder: new FeedDecoder({ format: 'json' }), limit: 100, onFull: 'fail', retain: 1, session: 'a', ...o });
const values = (rs: { value?: unknown; error?: string }[]) => rs.map((r) => r.value ?? r.error);

describe('FeedLog', () => {
  it('waits while empty, replays from any offset since the last completed checkpoint, and frees what came before', () => {
    const l = log();
    expect(l.read(10)).toEqual([]);
    expect(l.waiting()).toBe(true);
    for (let i = 1; i <= 5; i++) l.push(JSON.stringify({ n: i }));
    expect(values(l.read(3))).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    l.checkpointCompleted(2);
    expect(l.buffered()).toBe(3);
    l.seek(2);
    expect(values(l.read(10))).toEqual([{ n: 3 }, { n: 4 }, { n: 5 }]);
    expect(() => l.seek(1)).toThrow('live feed "f" cannot replay from message 2: a live feed keeps only the messages since its oldest retained checkpoint (from message 3 now)');
    expect(() => l.seek(9)).toThrow(/only 5 messages were received/);
    expect(l.done()).toBe(false);
    l.end();
    expect(l.done()).toBe(true);
  });

  it('keeps as many completed checkpoints replayable as are retained', () => {
    const l = log({ retain: 2 });
    for (let i = 0; i < 6; i++) l.push(`{"n":${i}}`);
    l.read(6);
    l.checkpointCompleted(2);
    l.checkpointCompleted(4);
    l.seek(2);
    l.read(10);
    l.checkpointCompleted(5);
    expect(() => l.seek(2)).toThrow(/from message 5 now/);
    l.seek(4);
  });

  it('fails the job when full with the fail policy, naming the bound and what to do', () => {
    const l = log({ limit: 2 });
    l.push('{}');
    l.push('{}');
    l.push('{}');
    expect(() => l.read(1)).toThrow(FeedBufferFull);
    expect(() => l.read(1)).toThrow(/2 messages are buffered since the oldest retained checkpoint \(the bufferLimit\).*raise bufferLimit/);
  });

  it('drops the overflow as one counted dead letter per gap with the drop policy', () => {
    const l = log({ limit: 2, onFull: 'drop' });
    for (let i = 0; i < 5; i++) l.push(`{"n":${i}}`);
    expect(l.dropped).toBe(3);
    expect(values(l.read(10))).toEqual([{ n: 0 }, { n: 1 }, '3 message(s) dropped before message 4: the buffer of 2 messages was full (onBufferFull: "drop")']);
  });

  it('a checkpoint carries the unread messages; another process adopts them, this one does not', () => {
    const a = log({ session: 'one' });
    for (let i = 0; i < 4; i++) a.push(`{"n":${i}}`);
    a.read(1);
    const carried = a.carry();
    expect(carried.pending).toHaveLength(3);
    a.read(2);
    a.adopt(1, carried);
    a.seek(1);
    expect(values(a.read(10))).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    const b = log({ session: 'two' });
    b.push('{"n":99}');
    b.adopt(1, carried);
    b.seek(1);
    const got = b.read(10);
    expect(values(got)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 99 }]);
    expect(got.map((r) => r.line)).toEqual([2, 3, 4, 5]);
  });
});
