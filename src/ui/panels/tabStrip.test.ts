import { describe, expect, it } from 'vitest';
import { alignedScroll, cutTabs } from './tabStrip.ts';

// Five tabs 80 px wide, 2 px apart.
const tabs = [0, 1, 2, 3, 4].map((i) => ({ start: i * 82, end: i * 82 + 80 }));

describe('alignedScroll', () => {
  it('stays put when the chosen tab is already whole in view', () => {
    expect(alignedScroll(tabs, 1, 0, 200)).toBe(0);
  });
  it('brings a tab past the right edge in, starting the view at a tab', () => {
    // Tab 3 ends at 326: a 200 px view must start at or after 126; the first tab start there is 164.
    expect(alignedScroll(tabs, 3, 0, 200)).toBe(164);
  });
  it('brings a tab past the left edge in at its start', () => {
    expect(alignedScroll(tabs, 0, 164, 200)).toBe(0);
  });
  it('moves a view that starts mid-tab back to that tab start', () => {
    expect(alignedScroll(tabs, 2, 13, 250)).toBe(0);
  });
});

describe('cutTabs', () => {
  it('names the tabs only partly in view', () => {
    expect(cutTabs(tabs, 13, 200)).toEqual([0, 2]);
    expect(cutTabs(tabs, 0, 410)).toEqual([]);
  });
});
