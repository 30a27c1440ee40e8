import { useEffect, useState } from 'react';
import { useStore } from '../store/createStore.ts';
import { Dialog } from '../shell/Dialog.tsx';
import { useT } from '../i18n/i18n.ts';
import { LESSONS, stepKey } from './catalog.ts';
import { lessonStore, refreshProgress } from './lessonStore.ts';
import { openLessonFromUi } from './openFromUi.ts';
import { GLOSSARY, type TermId } from './glossary.ts';
import { Term } from './Term.tsx';
import { LessonText } from './LessonText.tsx';
import './lessons.css';

/** The lessons home: every lesson with its progress per step, and the glossary. */
export function LessonsHome() {
  const t = useT();
  const passed = useStore(lessonStore, (s) => s.passed);
  const [opening, setOpening] = useState<string | null>(null);
  useEffect(() => void refreshProgress(), []);
  const open = async (id: string) => {
    setOpening(id);
    if (!(await openLessonFromUi(id))) setOpening(null);
  };
  return (
    <Dialog title={t('lessons.home')} wide>
      <p className="lessons-intro">{t('lessons.homeIntro')}</p>
      <ul className="lessons-list" aria-label={t('lessons.list')}>
        {LESSONS.map((l) => {
          // Only steps with a check can be ticked; reading-only steps never hold progress back.
          const checked = l.steps.map((s, i) => (s.check ? stepKey(l, i) : null)).filter((k): k is string => k !== null);
          const done = checked.filter((k) => passed.has(k)).length;
          const complete = done === checked.length;
          return (
            <li key={l.id} className="lessons-item" data-complete={complete || undefined}>
              <span className="lessons-n" aria-hidden>
                {complete ? '✓' : l.n}
              </span>
              <div className="lessons-body">
                <button type="button" className="lessons-open" disabled={opening !== null} onClick={() => void open(l.id)}>
                  {t(l.title)}
                </button>
                <p className="lessons-summary">
                  <LessonText text={t(l.summary)} />
                </p>
                <div className="lessons-progress">
                  <span className="lessons-dots" aria-hidden>
                    {checked.map((k) => (
                      <span key={k} className="lessons-dot" data-done={passed.has(k) || undefined} />
                    ))}
                  </span>
                  <span>{complete ? t('lessons.complete') : t('lessons.progress', { done, total: checked.length })}</span>
                  {opening === l.id && <span className="lessons-loading">{t('lessons.loading')}</span>}
                </div>
              </div>
            </li>
          );
        })}
      </ul>
      <h3 className="lessons-glossary-title">{t('lessons.glossary')}</h3>
      <p className="lessons-glossary">
        {(Object.keys(GLOSSARY) as TermId[]).map((id) => (
          <Term key={id} id={id} />
        ))}
      </p>
    </Dialog>
  );
}
