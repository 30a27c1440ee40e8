import { describe, expect, it } from 'vitest';
import { messageAreas, t } from './i18n.ts';

const placeholders = (s: string): string[] => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('i18n', () => {
  const areas = Object.entries(messageAreas());

  it('finds the message areas', () => {
    expect(areas.length).toBeGreaterThan(0);
  });

  for (const [path, area] of areas) {
    it(`${path}: every string has an English and a zh-TW text with the same placeholders`, () => {
      const missing: string[] = [];
      for (const key of new Set([...Object.keys(area.en), ...Object.keys(area['zh-TW'])])) {
        const en = area.en[key];
        const zh = area['zh-TW'][key];
        if (!en?.trim()) missing.push(`${key}: no English text`);
        else if (!zh?.trim()) missing.push(`${key}: no zh-TW text`);
        else if (placeholders(en).join() !== placeholders(zh).join()) missing.push(`${key}: placeholders differ (${placeholders(en)} vs ${placeholders(zh)})`);
      }
      expect(missing).toEqual([]);
    });
  }

  it('keys are unique across areas', () => {
    const seen = new Map<string, string>();
    const dupes: string[] = [];
    for (const [path, area] of areas) for (const k of Object.keys(area.en)) {
      if (seen.has(k)) dupes.push(`${k} in ${seen.get(k)} and ${path}`);
      seen.set(k, path);
    }
    expect(dupes).toEqual([]);
  });

  it('fills placeholders and shows a missing key in brackets', () => {
    expect(t('common.close', undefined, 'zh-TW')).toBe('關閉');
    expect(t('nope.missing')).toBe('[nope.missing]');
  });
});
