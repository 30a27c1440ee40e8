import { describe, expect, it } from 'vitest';
import { frameDraw } from './frameDraw.ts';

/** A hand-cranked animation frame. */
function frames() {
  const queue = new Map<number, () => void>();
  let id = 0;
  return {
    schedule: (run: () => void) => (queue.set(++id, run), id),
    cancel: (i: number) => void queue.delete(i),
    tick() {
      const runs = [...queue.values()];
      queue.clear();
      runs.forEach((r) => r());
    },
    pending: () => queue.size,
  };
}

describe('frameDraw', () => {
  it('draws the newest of several updates once, at the next frame', () => {
    const f = frames();
    const drawn: number[] = [];
    const d = frameDraw<number>((v) => drawn.push(v), f.schedule, f.cancel);
    d.push(1);
    d.push(2);
    d.push(3);
    expect(drawn).toEqual([]);
    expect(f.pending()).toBe(1);
    f.tick();
    expect(drawn).toEqual([3]);
    f.tick();
    expect(drawn).toEqual([3]);
    d.push(4);
    f.tick();
    expect(drawn).toEqual([3, 4]);
  });

  it('skips a value the drawing already shows, and nothing after dispose', () => {
    const f = frames();
    const drawn: string[] = [];
    const d = frameDraw<string>((v) => drawn.push(v), f.schedule, f.cancel);
    d.drawn('a');
    d.push('a');
    f.tick();
    expect(drawn).toEqual([]);
    d.push('b');
    d.dispose();
    f.tick();
    expect(drawn).toEqual([]);
  });
});
