import { describe, expect, it } from 'vitest';
import { isVisible, propsOf } from './fieldTypes.ts';
import { windowSpec } from '../../../pipeline/kinds/window.ts';

const visibleFor = (type: string): string[] =>
  Object.entries(propsOf(windowSpec.params))
    .filter(([, s]) => isVisible(s, { type }, false))
    .map(([k]) => k);

describe('window form fields follow the window type', () => {
  it('shows only the sizes that apply', () => {
    const common = ['type', 'groupBy', 'aggregates', 'allowedLatenessMs'];
    expect(visibleFor('tumble').sort()).toEqual([...common, 'sizeMs', 'offsetMs'].sort());
    expect(visibleFor('hop').sort()).toEqual([...common, 'sizeMs', 'slideMs', 'offsetMs'].sort());
    expect(visibleFor('cumulate').sort()).toEqual([...common, 'sizeMs', 'stepMs', 'offsetMs'].sort());
    expect(visibleFor('session').sort()).toEqual([...common, 'gapMs'].sort());
  });
  it('keeps a hidden field visible while it has a problem', () => {
    const slide = propsOf(windowSpec.params).slideMs;
    expect(isVisible(slide, { type: 'tumble' }, false)).toBe(false);
    expect(isVisible(slide, { type: 'tumble' }, true)).toBe(true);
  });
});
