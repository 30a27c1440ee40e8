import { describe, expect, it } from 'vitest';
import { t } from '../i18n/i18n.ts';
import { LESSONS, lessonById } from './catalog.ts';
import { GLOSSARY, isTermId } from './glossary.ts';
import { uiLabels } from './uiLabels.ts';

const keysOf = (l: (typeof LESSONS)[number]) => [l.title, l.summary, ...l.steps.flatMap((s) => [s.text, ...(s.question ? [s.question] : [])])];

describe('lesson texts', () => {
  it('every lesson string exists in English and zh-TW, with only known glossary terms and UI labels', () => {
    const labels = Object.keys(uiLabels(t));
    const problems: string[] = [];
    for (const l of LESSONS) for (const key of keysOf(l)) for (const lang of ['en', 'zh-TW'] as const) {
      const text = t(key, undefined, lang);
      if (text.startsWith('[')) problems.push(`${key} (${lang}) missing`);
      for (const m of text.matchAll(/\[\[(\w+)/g)) if (!isTermId(m[1])) problems.push(`${key} (${lang}): unknown term ${m[1]}`);
      for (const m of text.matchAll(/\{(\w+)\}/g)) if (!labels.includes(m[1])) problems.push(`${key} (${lang}): unknown label {${m[1]}}`);
    }
    expect(problems).toEqual([]);
  });

  it('zh-TW texts keep the English technical terms the seeds keep', () => {
    const zh = LESSONS.flatMap((l) => keysOf(l)).map((k) => t(k, undefined, 'zh-TW')).join('\n');
    for (const term of ['checkpoint', 'watermark', 'barrier', 'subtask', 'key group', 'TTL', 'state']) expect(zh, term).toContain(term);
  });

  it('every glossary term has both languages and points at an existing lesson that uses it', () => {
    for (const [id, lessonId] of Object.entries(GLOSSARY)) {
      const lesson = lessonById(lessonId);
      expect(lesson, id).toBeDefined();
      for (const lang of ['en', 'zh-TW'] as const) {
        expect(t(`glossary.${id}.term`, undefined, lang), `${id} ${lang}`).not.toMatch(/^\[/);
        expect(t(`glossary.${id}.def`, undefined, lang), `${id} ${lang}`).not.toMatch(/^\[/);
      }
      const used = LESSONS.some((l) => keysOf(l).some((k) => t(k, undefined, 'en').includes(`[[${id}`)));
      expect(used, `${id} is used in some lesson text`).toBe(true);
    }
  });
});
