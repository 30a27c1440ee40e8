import type { Lesson } from './types.ts';
import { all, answerEquals, countedExactlyOnce, finished, keysSpreadOver, sinkHasRows, sinkRows, ttlKeptStateSmaller, viewValue } from './checks.ts';
import { exportFlinkSql } from '../../export/flinkSql/index.ts';
import type { PipelineDocument } from '../../pipeline/document.ts';

/** How many INSERT INTO statements the Flink SQL export of `doc` has; null when it does not export. */
let lastDoc: PipelineDocument | null = null;
let lastCount: number | null = null;
export function insertStatements(doc: PipelineDocument): number | null {
  if (doc === lastDoc) return lastCount;
  lastDoc = doc;
  try {
    lastCount = (exportFlinkSql(doc).sql.match(/^\s*INSERT INTO/gim) ?? []).length;
  } catch {
    lastCount = null;
  }
  return lastCount;
}

const parallelismOf = (doc: PipelineDocument, id: string): number => doc.nodes.find((n) => n.id === id)?.parallelism ?? doc.settings?.parallelism ?? 1;

/** Gold is right when every city appears once, written the same way (upper case, no spaces around). */
const goldNormalized = (rows: Record<string, unknown>[]): boolean =>
  rows.length > 0 && rows.every((r) => typeof r.city === 'string' && r.city === r.city.trim().toUpperCase()) && new Set(rows.map((r) => r.city)).size === rows.length;

/** Lessons 6–10: checkpoints, scaling, TTL, layers, export. */
export const advancedLessons: Lesson[] = [
  {
    id: 'checkpoints', n: 6, title: 'lesson6.title', summary: 'lesson6.summary', pipeline: 'lesson-6.json',
    steps: [
      { text: 'lesson6.step1', check: (i) => i.events.checkpoints >= 1 || (i.snapshot?.checkpoints ?? 0) >= 1 },
      { text: 'lesson6.step2', check: (i) => i.events.barrierSeen && i.events.alignmentSeen },
      { text: 'lesson6.step3', check: (i) => i.events.restarts >= 1 },
      { text: 'lesson6.step4', check: all((i) => i.events.restarts >= 1, finished, countedExactlyOnce('seq_counts', 'counted', 'max_seq', 600)) },
    ],
  },
  {
    id: 'scaling', n: 7, title: 'lesson7.title', summary: 'lesson7.summary', pipeline: 'lesson-7.json',
    steps: [
      { text: 'lesson7.step1', check: (i) => parallelismOf(i.doc, 'sales') === 1 && (i.snapshot?.checkpoints ?? 0) >= 1 },
      { text: 'lesson7.step2', check: (i) => parallelismOf(i.doc, 'sales') === 4 },
      { text: 'lesson7.step3', check: keysSpreadOver('sales', 4) },
      { text: 'lesson7.step4', check: all((i) => parallelismOf(i.doc, 'sales') === 4, finished, sinkHasRows('sales_by_store', 40)) },
    ],
  },
  {
    id: 'state-ttl', n: 8, title: 'lesson8.title', summary: 'lesson8.summary', pipeline: 'lesson-8.json',
    steps: [
      { text: 'lesson8.step1', check: (i) => (i.events.peakKeys['paid|none'] ?? 0) >= 20 },
      { text: 'lesson8.step2', check: (i) => Number(i.doc.nodes.find((n) => n.id === 'paid')?.params.ttlMs ?? 0) > 0 },
      { text: 'lesson8.step3', check: ttlKeptStateSmaller('paid') },
    ],
  },
  {
    id: 'medallion', n: 9, title: 'lesson9.title', summary: 'lesson9.summary', pipeline: 'lesson-9.json',
    steps: [
      { text: 'lesson9.step1', check: (i) => sinkRows(i, 'gold').some((r) => typeof r.city === 'string' && r.city !== r.city.trim().toUpperCase()) },
      { text: 'lesson9.step2', check: (i) => /upper\s*\(/i.test(JSON.stringify(i.doc.nodes.find((n) => n.id === 'clean')?.params ?? {})) },
      { text: 'lesson9.step3', check: all(finished, (i) => goldNormalized(sinkRows(i, 'gold'))) },
      { text: 'lesson9.step4', question: 'lesson9.q4', check: all((i) => goldNormalized(sinkRows(i, 'gold')), answerEquals((i) => viewValue(i, 'gold', 'city', 'TAIPEI', 'revenue_twd'))) },
    ],
  },
  {
    id: 'export', n: 10, title: 'lesson10.title', summary: 'lesson10.summary', pipeline: 'lesson-10.json',
    steps: [
      { text: 'lesson10.step1', check: (i) => i.events.dialogs.includes('flinkSql') },
      { text: 'lesson10.step2', question: 'lesson10.q2', check: answerEquals((i) => insertStatements(i.doc), 0) },
      { text: 'lesson10.step3' },
    ],
  },
];
