import { useId, useState } from 'react';
import type { ReactNode } from 'react';

/** A titled block of the inspector that can fold away. */
export function Section({ title, children, defaultOpen = true }: { title: string; children: ReactNode; defaultOpen?: boolean }) {
  const [open, setOpen] = useState(defaultOpen);
  const id = useId();
  return (
    <section className="section">
      <h3 className="section-title">
        <button type="button" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
          <span className="caret" aria-hidden>
            {open ? '▾' : '▸'}
          </span>
          {title}
        </button>
      </h3>
      <div id={id} hidden={!open} className="section-body">
        {children}
      </div>
    </section>
  );
}
