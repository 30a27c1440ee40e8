import { useEffect, useId } from 'react';
import { useStore } from '../store/createStore.ts';
import { setUi } from '../store/uiStore.ts';
import { useT } from '../i18n/i18n.ts';
import { lessonById, stepKey } from './catalog.ts';
import { closeLesson, goToStep, lessonStore, setAnswer, watchLessons } from './lessonStore.ts';
import { LessonText } from './LessonText.tsx';
import { uiLabels } from './uiLabels.ts';
import './lessons.css';

/** The narrative side panel of the open lesson: its steps, ✓ as checks pass, next/previous. */
export function LessonPanel() {
  const t = useT();
  const answerId = useId();
  useEffect(() => watchLessons(), []);
  const lessonId = useStore(lessonStore, (s) => s.lessonId);
  const stepIndex = useStore(lessonStore, (s) => s.step);
  const passed = useStore(lessonStore, (s) => s.passed);
  const answers = useStore(lessonStore, (s) => s.answers);
  const lesson = lessonId ? lessonById(lessonId) : undefined;
  if (!lesson) return null;
  const step = lesson.steps[Math.min(stepIndex, lesson.steps.length - 1)];
  const key = stepKey(lesson, stepIndex);
  const done = passed.has(key);
  const allDone = lesson.steps.every((s, i) => !s.check || passed.has(stepKey(lesson, i)));
  return (
    <aside className="lesson-panel" aria-label={t('lessons.panel')}>
      <div className="lesson-head">
        <div>
          <div className="lesson-kicker">{t('lessons.lessonN', { n: lesson.n })}</div>
          <h2 className="lesson-title">{t(lesson.title)}</h2>
        </div>
        <button type="button" className="btn-icon" aria-label={t('lessons.close')} title={t('lessons.close')} onClick={closeLesson}>
          ×
        </button>
      </div>
      <p className="lesson-summary">
        <LessonText text={t(lesson.summary)} />
      </p>
      <ol className="lesson-steps" aria-label={t('lessons.steps')}>
        {lesson.steps.map((s, i) => {
          const ok = passed.has(stepKey(lesson, i));
          const label = ok ? t('lessons.stepDone', { n: i + 1 }) : t('lessons.stepN', { n: i + 1 });
          return (
            <li key={i}>
              <button type="button" className="lesson-step-dot" data-current={i === stepIndex || undefined} data-done={ok || undefined} aria-current={i === stepIndex ? 'step' : undefined} aria-label={label} title={label} onClick={() => goToStep(i)}>
                {ok ? '✓' : i + 1}
              </button>
            </li>
          );
        })}
      </ol>
      <section className="lesson-step" aria-label={t('lessons.stepN', { n: stepIndex + 1 })}>
        <h3 className="lesson-step-title">{t('lessons.stepN', { n: stepIndex + 1 })}</h3>
        <p className="lesson-step-text">
          <LessonText text={t(step.text, uiLabels(t))} />
        </p>
        {step.question && (
          <div className="lesson-answer">
            <label htmlFor={answerId}>{t(step.question)}</label>
            <input id={answerId} className="input" value={answers[key] ?? ''} onChange={(e) => setAnswer(key, e.target.value)} aria-describedby={`${answerId}-hint`} />
            <span id={`${answerId}-hint`} className="lesson-hint">
              {t('lessons.answerHint')}
            </span>
          </div>
        )}
        <p className="lesson-check" data-done={done || undefined} role="status">
          {!step.check ? t('lessons.noCheck') : done ? t('lessons.checkPassed') : t('lessons.checkWaiting')}
        </p>
      </section>
      {allDone && <p className="lesson-finished">{t('lessons.finished')}</p>}
      <div className="lesson-nav">
        <button type="button" className="btn" disabled={stepIndex === 0} onClick={() => goToStep(stepIndex - 1)}>
          {t('lessons.previous')}
        </button>
        <button type="button" className="btn btn-ghost" onClick={() => setUi({ dialog: 'lessons' })}>
          {t('lessons.allLessons')}
        </button>
        <button type="button" className="btn btn-primary" disabled={stepIndex >= lesson.steps.length - 1} onClick={() => goToStep(stepIndex + 1)}>
          {t('lessons.next')}
        </button>
      </div>
    </aside>
  );
}
