import { createStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import { uiStore } from '../store/uiStore.ts';
import { runStore } from '../run/runStore.ts';
import { readDocument } from '../projects/fileIO.ts';
import { openAsNewProject } from '../projects/openDocument.ts';
import type { RunSnapshot } from '../../worker/protocol.ts';
import { LESSONS, lessonById, stepKey } from './catalog.ts';
import { noteDialog, noteSnapshot } from './events.ts';
import { loadProgress, markPassed, resetLesson } from './progressDb.ts';
import { NO_EVENTS, type LessonEvents } from './types.ts';

export interface LessonSession {
  /** The open lesson, or null when the side panel is closed. */
  lessonId: string | null;
  step: number;
  /** Learner answers per step key. */
  answers: Record<string, string>;
  events: LessonEvents;
  /** Step keys passed, in any lesson (from IndexedDB plus this session). */
  passed: ReadonlySet<string>;
  error: string | null;
}

export const lessonStore = createStore<LessonSession>({ lessonId: null, step: 0, answers: {}, events: NO_EVENTS, passed: new Set(), error: null });

const patch = (p: Partial<LessonSession>) => lessonStore.set((s) => ({ ...s, ...p }));

export async function refreshProgress(): Promise<void> {
  try {
    const saved = await loadProgress();
    lessonStore.set((s) => ({ ...s, passed: new Set([...s.passed, ...saved]) }));
  } catch {
    // Without IndexedDB progress lasts for this page only; the lessons still work.
  }
}

/** Loads the lesson's pipeline as a new project and opens the side panel at its first open step. */
export async function openLesson(id: string): Promise<void> {
  const lesson = lessonById(id);
  if (!lesson) throw new Error(`no lesson "${id}"; known: ${LESSONS.map((l) => l.id).join(', ')}`);
  const url = `${import.meta.env.BASE_URL}lessons/${lesson.pipeline}`;
  const res = await fetch(url);
  if (!res.ok) throw new Error(`lesson "${id}": could not load ${url} (HTTP ${res.status})`);
  const read = readDocument(await res.text());
  if (!read.ok) throw new Error(`lesson "${id}": ${lesson.pipeline} is not a valid pipeline: ${read.message}`);
  await openAsNewProject(read.doc, 'example');
  const passed = lessonStore.get().passed;
  const firstOpen = lesson.steps.findIndex((_, i) => !passed.has(stepKey(lesson, i)));
  patch({ lessonId: id, step: Math.max(0, firstOpen), events: NO_EVENTS, answers: {}, error: null });
}

export const closeLesson = (): void => patch({ lessonId: null });
export const goToStep = (step: number): void => patch({ step });
export const setAnswer = (key: string, value: string): void => lessonStore.set((s) => ({ ...s, answers: { ...s.answers, [key]: value } }));

export async function restartLesson(id: string): Promise<void> {
  await resetLesson(id).catch(() => undefined);
  lessonStore.set((s) => ({ ...s, passed: new Set([...s.passed].filter((k) => !k.startsWith(`${id}#`))), step: 0, answers: {}, events: NO_EVENTS }));
}

/** Runs the not-yet-passed checks of the open lesson up to the current step against the current stores. */
function evaluate(): void {
  const s = lessonStore.get();
  const lesson = s.lessonId ? lessonById(s.lessonId) : undefined;
  if (!lesson) return;
  const { snapshot, frame } = runStore.get();
  const input = { doc: editorStore.get().doc, snapshot, frame: frame ?? snapshot?.frame ?? null, events: s.events };
  const newly: string[] = [];
  lesson.steps.forEach((step, i) => {
    const key = stepKey(lesson, i);
    // A step the learner has not reached is never ticked, even if the state already satisfies it.
    if (i > s.step || !step.check || s.passed.has(key)) return;
    let ok = false;
    try {
      ok = step.check({ ...input, answer: s.answers[key] ?? '' });
    } catch {
      ok = false; // A check that cannot read a half-loaded frame simply has not passed yet.
    }
    if (ok) newly.push(key);
  });
  if (!newly.length) return;
  // The current step passed: the panel moves on to the next one by itself.
  const advance = newly.includes(stepKey(lesson, s.step)) && s.step < lesson.steps.length - 1;
  lessonStore.set((st) => ({ ...st, passed: new Set([...st.passed, ...newly]), step: advance && st.step === s.step ? st.step + 1 : st.step }));
  for (const key of newly) void markPassed(key, lesson.id, Date.now()).catch(() => undefined);
  // The step just reached may already hold (the same action can satisfy two steps): check it now.
  if (advance) evaluate();
}

/**
 * Watches the run, the document, the dialogs and the answers while a lesson is open.
 * Each store change costs one pass over the open lesson's unpassed checks, nothing more.
 */
export function watchLessons(): () => void {
  let prevSnap: RunSnapshot | null = runStore.get().snapshot;
  const onRun = () => {
    const snap = runStore.get().snapshot;
    if (snap === prevSnap) return;
    if (lessonStore.get().lessonId) lessonStore.set((s) => ({ ...s, events: noteSnapshot(s.events, prevSnap, snap, editorStore.get().doc, runStore.get().frame ?? snap?.frame ?? null) }));
    prevSnap = snap;
    evaluate();
  };
  const onUi = () => {
    const d = uiStore.get().dialog;
    if (lessonStore.get().lessonId && d) lessonStore.set((s) => ({ ...s, events: noteDialog(s.events, d) }));
    evaluate();
  };
  let prevAnswers = lessonStore.get().answers;
  let prevLesson = lessonStore.get().lessonId;
  let prevStep = lessonStore.get().step;
  const onLesson = () => {
    const s = lessonStore.get();
    // A step the learner moves to by hand is reached too: if it already holds, it ticks now.
    if (s.answers === prevAnswers && s.lessonId === prevLesson && s.step === prevStep) return;
    prevAnswers = s.answers;
    prevLesson = s.lessonId;
    prevStep = s.step;
    evaluate();
  };
  const offs = [runStore.subscribe(onRun), editorStore.subscribe(evaluate), uiStore.subscribe(onUi), lessonStore.subscribe(onLesson)];
  void refreshProgress();
  return () => offs.forEach((off) => off());
}
