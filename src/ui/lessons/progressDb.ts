import { openDB } from 'idb';
import type { DBSchema, IDBPDatabase } from 'idb';

/** One passed step of one lesson. */
export interface StepProgress {
  /** `lessonId#stepIndex` (catalog.stepKey). */
  key: string;
  lesson: string;
  passedAt: number;
}

interface LessonsDb extends DBSchema {
  progress: { key: string; value: StepProgress };
}

// A database of its own: clearing projects must not clear what the learner has done, and back.
const DB_NAME = 'weir-lessons';
let db: Promise<IDBPDatabase<LessonsDb>> | null = null;

function open(): Promise<IDBPDatabase<LessonsDb>> {
  db ??= openDB<LessonsDb>(DB_NAME, 1, {
    upgrade(d) {
      d.createObjectStore('progress', { keyPath: 'key' });
    },
  });
  return db;
}

export async function loadProgress(): Promise<Set<string>> {
  const all = await (await open()).getAll('progress');
  return new Set(all.map((p) => p.key));
}

export async function markPassed(key: string, lesson: string, at: number): Promise<void> {
  await (await open()).put('progress', { key, lesson, passedAt: at });
}

export async function resetLesson(lesson: string): Promise<void> {
  const d = await open();
  const tx = d.transaction('progress', 'readwrite');
  for (const p of await tx.store.getAll()) if (p.lesson === lesson) await tx.store.delete(p.key);
  await tx.done;
}
