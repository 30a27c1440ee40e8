import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { loadProgress, markPassed, resetLesson } from './progressDb.ts';

describe('lesson progress in IndexedDB', () => {
  it('remembers passed steps and resets one lesson without touching others', async () => {
    await markPassed('joins#0', 'joins', 1);
    await markPassed('joins#2', 'joins', 2);
    await markPassed('windows#1', 'windows', 3);
    expect([...(await loadProgress())].sort()).toEqual(['joins#0', 'joins#2', 'windows#1']);
    await resetLesson('joins');
    expect([...(await loadProgress())]).toEqual(['windows#1']);
  });
});
