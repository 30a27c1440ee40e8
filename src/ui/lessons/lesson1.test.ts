import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { PipelineDocument } from '../../pipeline/document.ts';
import { runPipeline } from '../../testing/runPipeline.ts';
import lesson1 from '../i18n/messages/lesson-1.ts';
import { LESSON1_BIG_ORDER } from './catalogBasics.ts';

describe('lesson 1, step 4', () => {
  it('asks for a threshold that some drinks reach, in both languages', () => {
    const doc = JSON.parse(readFileSync('public/lessons/lesson-1.json', 'utf8')) as PipelineDocument;
    const before = runPipeline(doc).changelogs.big_log.length;
    const filter = doc.nodes.find((n) => n.id === 'big_orders')!;
    filter.params = { ...filter.params, where: `visit_type = 'order' AND amount >= ${LESSON1_BIG_ORDER}` };
    const after = runPipeline(doc).changelogs.big_log.length;
    expect(after).toBeGreaterThan(0);
    expect(after).toBeLessThan(before);
    for (const lang of ['en', 'zh-TW'] as const) expect(lesson1[lang]['lesson1.step4']).toContain(`amount >= ${LESSON1_BIG_ORDER}`);
  });
});
