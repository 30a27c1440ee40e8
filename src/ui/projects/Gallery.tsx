import { useEffect, useState } from 'react';
import { Dialog } from '../shell/Dialog.tsx';
import { setUi } from '../store/uiStore.ts';
import { emptyDocument } from '../store/editorStore.ts';
import { Thumbnail } from './Thumbnail.tsx';
import { loadExamples } from './examples.ts';
import type { LoadedExample } from './examples.ts';
import { openAsNewProject } from './openDocument.ts';
import { useT } from '../i18n/i18n.ts';

export async function openExample(e: LoadedExample): Promise<void> {
  if (!e.doc) return;
  await openAsNewProject(structuredClone(e.doc), 'example');
  setUi({ dialog: null });
}

/** Every pipeline in public/examples, one click each, plus a blank canvas. */
export function Gallery() {
  const [examples, setExamples] = useState<LoadedExample[] | null>(null);
  useEffect(() => void loadExamples().then(setExamples), []);
  const t = useT();
  return (
    <Dialog title={t('projects.examples')} wide>
      <div className="gallery" role="list">
        <div role="listitem">
          <button
            type="button"
            className="gallery-card gallery-blank"
            onClick={() => {
              void openAsNewProject(emptyDocument(), 'local');
              setUi({ dialog: null });
            }}
          >
            <span className="gallery-plus" aria-hidden>
              +
            </span>
            <span className="gallery-title">{t('projects.blank')}</span>
            <span className="gallery-desc">{t('projects.blankDesc')}</span>
          </button>
        </div>
        {examples === null && <p className="muted">{t('projects.loadingExamples')}</p>}
        {examples?.map((e) => (
          <div role="listitem" key={e.file}>
            <button type="button" className="gallery-card" onClick={() => void openExample(e)} disabled={!e.doc} aria-label={t('projects.openExample', { title: e.title })}>
              {e.doc ? <Thumbnail doc={e.doc} /> : <span className="field-error">{e.error}</span>}
              <span className="gallery-title">{e.title}</span>
              <span className="gallery-desc">{e.description}</span>
            </button>
          </div>
        ))}
      </div>
    </Dialog>
  );
}
