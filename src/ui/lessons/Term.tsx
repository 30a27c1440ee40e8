import { useId, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { useT } from '../i18n/i18n.ts';
import { GLOSSARY, type TermId } from './glossary.ts';
import { lessonById } from './catalog.ts';
import { openLessonFromUi } from './openFromUi.ts';

const TIP_WIDTH = 260;

/**
 * A glossary term in running text: focus or hover shows its definition (the trigger is
 * described by the tooltip, so screen readers read it too) with a link to its lesson.
 */
export function Term({ id, children }: { id: TermId; children?: ReactNode }) {
  const t = useT();
  const tipId = useId();
  const [pos, setPos] = useState<{ left: number; top: number } | null>(null);
  const wrap = useRef<HTMLSpanElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const open = pos !== null;
  // Fixed to the viewport, so the side panel's scrolling box never clips it; kept on screen.
  const setOpen = (next: boolean | ((o: boolean) => boolean)) => {
    const want = typeof next === 'function' ? next(open) : next;
    const r = trigger.current?.getBoundingClientRect();
    setPos(want && r ? { left: Math.max(4, Math.min(r.left, window.innerWidth - TIP_WIDTH - 8)), top: r.bottom } : null);
  };
  const lesson = lessonById(GLOSSARY[id]);
  return (
    <span
      ref={wrap}
      className="term"
      onMouseEnter={() => setOpen(true)}
      onMouseLeave={() => setOpen(false)}
      onFocus={() => setOpen(true)}
      onBlur={(e) => !wrap.current?.contains(e.relatedTarget as Node | null) && setOpen(false)}
      onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}
    >
      <button ref={trigger} type="button" className="term-trigger" aria-describedby={tipId} aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        {children ?? t(`glossary.${id}.term`)}
      </button>
      <span role="tooltip" id={tipId} className="term-tip" data-open={open || undefined} style={pos ? { left: pos.left, top: pos.top, width: TIP_WIDTH } : undefined}>
        <strong>{t(`glossary.${id}.term`)}</strong> {t(`glossary.${id}.def`)}
        {lesson && (
          <a
            href={`#lesson=${lesson.id}`}
            className="term-link"
            onClick={(e) => {
              e.preventDefault();
              setOpen(false);
              void openLessonFromUi(lesson.id);
            }}
          >
            {t('glossary.openLesson', { n: lesson.n, title: t(lesson.title) })}
          </a>
        )}
      </span>
    </span>
  );
}
