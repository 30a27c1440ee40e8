import { describe, expect, it } from 'vitest';
import { WireArena } from './wireArena.ts';

describe('WireArena', () => {
  it('hands out zeroed, 8-aligned views that do not overlap, starting a new chunk when one is full', () => {
    const arena = new WireArena(64);
    const views = [arena.u8(3), arena.f64(4), arena.u32(5), arena.f64(20), arena.u8(1)];
    views.forEach((v, i) => {
      expect(v.byteOffset % 8).toBe(0);
      expect(Array.from(v as Uint8Array).every((x) => x === 0)).toBe(true);
      (v as Uint8Array).fill(i + 1);
    });
    views.forEach((v, i) => expect(Array.from(v as Uint8Array).every((x) => x === i + 1)).toBe(true));
    const transfer: Transferable[] = [];
    arena.transferTo(transfer);
    // 8 + 32 + 24 fill the first 64 bytes; the 160-byte column needs a chunk of its own, the last byte a smaller one (half the estimate each time).
    expect(transfer.map((b) => (b as ArrayBuffer).byteLength)).toEqual([64, 160, 16]);
    expect(views.map((v) => transfer.indexOf(v.buffer))).toEqual([0, 0, 0, 1, 2]);
  });
});
