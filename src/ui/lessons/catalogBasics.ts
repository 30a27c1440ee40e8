import type { Lesson } from './types.ts';
import { all, answerEquals, answerIsTopRow, finished, lateRecords, param, sawRetraction, sinkHasRows, sinkTotal, stateKeysAtLeast, viewWasUpdated } from './checks.ts';

/** The number in `amount >= N` of a filter, or null. */
const filterThreshold = (where: string): number | null => {
  const m = /amount\s*>=\s*(\d+(?:\.\d+)?)/i.exec(where);
  return m ? Number(m[1]) : null;
};

/** Lesson 1, step 4: the filter's new threshold, in dollars; only the dearest drinks reach it. */
export const LESSON1_BIG_ORDER = 4;

/** Lessons 1–5: state, tables, joins, windows, backends. Text lives in messages/lesson-<n>.ts. */
export const basicLessons: Lesson[] = [
  {
    id: 'stateless-stateful', n: 1, title: 'lesson1.title', summary: 'lesson1.summary', pipeline: 'lesson-1.json',
    steps: [
      { text: 'lesson1.step1', check: sinkHasRows('visits_view') },
      { text: 'lesson1.step2', check: stateKeysAtLeast('visits', 10) },
      { text: 'lesson1.step3', question: 'lesson1.q3', check: answerIsTopRow('visits_view', 'visits', ['name', 'customer_id']) },
      { text: 'lesson1.step4', check: (i) => filterThreshold(String(param(i, 'big_orders', 'where') ?? '')) === LESSON1_BIG_ORDER && sinkTotal(i, 'visits_view') > 0 && finished(i) },
    ],
  },
  {
    id: 'streams-tables', n: 2, title: 'lesson2.title', summary: 'lesson2.summary', pipeline: 'lesson-2.json',
    steps: [
      { text: 'lesson2.step1', check: sinkHasRows('sales_by_store') },
      { text: 'lesson2.step2', check: viewWasUpdated('sales_by_store') },
      { text: 'lesson2.step3', question: 'lesson2.q3', check: all(finished, answerIsTopRow('sales_by_store', 'revenue', ['store_id'])) },
      { text: 'lesson2.step4', check: (i) => !!i.frame?.query && i.frame.query.sink === 'sales_by_store' && (i.frame.query.rows.length > 0 || i.frame.query.changes.length > 0) },
    ],
  },
  {
    id: 'joins', n: 3, title: 'lesson3.title', summary: 'lesson3.summary', pipeline: 'lesson-3.json',
    steps: [
      { text: 'lesson3.step1', check: sinkHasRows('order_status') },
      { text: 'lesson3.step2', check: (i) => i.frame?.join?.node === 'paid' && i.frame.join.left.length + i.frame.join.right.length > 0 },
      { text: 'lesson3.step3', check: sawRetraction('order_status') },
      { text: 'lesson3.step4', check: (i) => param(i, 'paid', 'type') === 'inner' && sinkTotal(i, 'order_status') > 0 && !sawRetraction('order_status')(i) },
      { text: 'lesson3.step5', check: (i) => Number(param(i, 'paid', 'ttlMs') ?? 0) > 0 },
    ],
  },
  {
    id: 'windows', n: 4, title: 'lesson4.title', summary: 'lesson4.summary', pipeline: 'lesson-4.json',
    steps: [
      { text: 'lesson4.step1', check: (i) => param(i, 'per_minute', 'type') === 'tumble' && sinkHasRows('revenue_per_minute')(i) },
      { text: 'lesson4.step2', check: (i) => param(i, 'per_minute', 'type') === 'hop' && sinkHasRows('revenue_per_minute')(i) },
      { text: 'lesson4.step3', check: (i) => param(i, 'per_minute', 'type') === 'session' && sinkHasRows('revenue_per_minute')(i) },
      { text: 'lesson4.step4', check: (i) => lateRecords(i, 'per_minute') > 0 },
    ],
  },
  {
    id: 'state-backends', n: 5, title: 'lesson5.title', summary: 'lesson5.summary', pipeline: 'lesson-5.json',
    steps: [
      { text: 'lesson5.step1', check: (i) => i.events.finished.some((f) => f.backend === 'memory') },
      { text: 'lesson5.step2', check: (i) => i.events.finished.some((f) => f.backend === 'indexeddb') },
      { text: 'lesson5.step3', question: 'lesson5.q3', check: all(finished, answerEquals((i) => (i.snapshot?.sinks.sales_by_store ? sinkTotal(i, 'sales_by_store') : null), 0)) },
      { text: 'lesson5.step4', check: (i) => !!i.frame?.checkpoints.some((c) => c.status === 'completed' && c.incrementalBytes > 0 && c.incrementalBytes < c.fullBytes) },
    ],
  },
];
