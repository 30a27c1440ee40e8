import { describe, expect, it } from 'vitest';
import { kindSpecs } from '../../pipeline/kinds/index.ts';
import { KIND_ICON_PATHS } from './kindIcons.tsx';

describe('kind icons', () => {
  it('every operator kind has its own drawing, not the fallback', () => {
    expect(kindSpecs.map((s) => s.kind).filter((k) => !(k in KIND_ICON_PATHS))).toEqual([]);
  });
});
