import { describe, expect, it } from 'vitest';
import { MIN_CENTER, defaultLayout, foldToFit } from './layoutStore.ts';

describe('foldToFit', () => {
  const wide = defaultLayout(1280, 720);
  it('leaves a layout that fits alone', () => {
    expect(foldToFit(wide, 1280)).toBeNull();
  });
  it('folds the palette first, then the inspector, as the window narrows', () => {
    expect(foldToFit(wide, 900)).toEqual({ paletteOpen: false });
    expect(foldToFit(wide, 600)).toEqual({ paletteOpen: false, inspectorOpen: false });
  });
  it('never folds the panel the user has just opened', () => {
    expect(foldToFit(wide, 900, 'palette')).toEqual({ inspectorOpen: false });
    expect(foldToFit(wide, 600, 'inspector')).toEqual({ paletteOpen: false });
  });
  it('a first visit at any width already fits', () => {
    for (const w of [600, 760, 900, 1024, 1280]) {
      const l = defaultLayout(w, 700);
      const center = w - (l.paletteOpen ? l.paletteWidth : 28) - (l.inspectorOpen ? l.inspectorWidth : 28);
      expect(center).toBeGreaterThanOrEqual(MIN_CENTER);
      expect(foldToFit(l, w)).toBeNull();
    }
  });
});
