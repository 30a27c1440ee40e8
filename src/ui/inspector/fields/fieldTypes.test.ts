import { describe, expect, it } from 'vitest';
import { isVisible, propsOf } from './fieldTypes.ts';
import { windowSpec } from '../../../pipeline/kinds/window.ts';
import { generatorSourceSpec } from '../../../pipeline/kinds/generatorSource.ts';

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

describe('datagen column options follow the column kind', () => {
  const column = propsOf(propsOf(generatorSourceSpec.params).columns.additionalProperties as Parameters<typeof propsOf>[0]);
  const visible = (kind: string | undefined) =>
    Object.entries(column)
      .filter(([, s]) => isVisible(s, kind === undefined ? {} : { kind }, false))
      .map(([k]) => k)
      .sort();
  it('an unset kind is random: the random options show', () => {
    expect(visible(undefined)).toEqual(visible('random'));
    expect(visible('random')).toEqual(['kind', 'length', 'max', 'maxPastMs', 'min', 'nullRate']);
  });
  it('a sequence shows its start and end only', () => {
    expect(visible('sequence')).toEqual(['end', 'kind', 'nullRate', 'start']);
  });
});
