import { useEffect, useState } from 'react';
import { Dialog } from '../shell/Dialog.tsx';
import { useStore } from '../store/createStore.ts';
import { editorStore, emptyDocument } from '../store/editorStore.ts';
import { setUi } from '../store/uiStore.ts';
import { dispatch } from '../actions/registry.ts';
import { renamePipeline } from '../actions/docActions.ts';
import { deleteProject, listProjects, newProjectId, putProject } from './projectDb.ts';
import type { ProjectRecord } from './projectDb.ts';
import { openAsNewProject, openProject } from './openDocument.ts';
import { Thumbnail } from './Thumbnail.tsx';
import { useT } from '../i18n/i18n.ts';
import { plural } from '../i18n/plural.ts';

const when = (at: number): string => new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function ProjectRow({ rec, current, refresh }: { rec: ProjectRecord; current: boolean; refresh(): void }) {
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(rec.doc.name);
  const [confirm, setConfirm] = useState(false);
  const t = useT();
  const rename = async () => {
    setRenaming(false);
    if (!name.trim() || name === rec.doc.name) return;
    if (current) dispatch(renamePipeline, name.trim());
    else await putProject({ ...rec, doc: { ...rec.doc, name: name.trim() }, updatedAt: Date.now() });
    setTimeout(refresh, 400);
  };
  return (
    <li className={`project${current ? ' project-current' : ''}`} aria-label={rec.doc.name}>
      <Thumbnail doc={rec.doc} width={120} height={60} />
      <div className="project-info">
        {renaming ? (
          <input className="input" aria-label={t('projects.name')} value={name} autoFocus onChange={(e) => setName(e.target.value)} onBlur={() => void rename()} onKeyDown={(e) => e.key === 'Enter' && void rename()} />
        ) : (
          <div className="project-name">
            {rec.doc.name} {current && <span className="chip chip-small">{t('projects.open')}</span>}
          </div>
        )}
        <div className="muted small">
          {plural(t, 'projects.meta', rec.doc.nodes.length, { when: when(rec.updatedAt) })}
        </div>
      </div>
      <div className="project-actions">
        <button type="button" className="btn btn-small" onClick={() => (openProject(rec), setUi({ dialog: null }))} disabled={current}>
          {t('projects.openButton')}
        </button>
        <button type="button" className="btn btn-small" onClick={() => setRenaming(true)}>
          {t('projects.rename')}
        </button>
        <button
          type="button"
          className="btn btn-small"
          onClick={async () => {
            const now = Date.now();
            await putProject({ ...rec, id: newProjectId(), doc: { ...structuredClone(rec.doc), name: t('projects.copyName', { name: rec.doc.name }) }, createdAt: now, updatedAt: now });
            refresh();
          }}
        >
          {t('projects.duplicate')}
        </button>
        {confirm ? (
          <button
            type="button"
            className="btn btn-small btn-danger"
            onClick={async () => {
              await deleteProject(rec.id);
              if (current) await openAsNewProject(emptyDocument(), 'local');
              refresh();
            }}
          >
            {t('projects.reallyDelete')}
          </button>
        ) : (
          <button type="button" className="btn btn-small" onClick={() => setConfirm(true)}>
            {t('projects.delete')}
          </button>
        )}
      </div>
    </li>
  );
}

/** Projects saved in this browser (IndexedDB): open, rename, duplicate, delete. */
export function ProjectsDialog() {
  const [projects, setProjects] = useState<ProjectRecord[] | null>(null);
  const currentId = useStore(editorStore, (s) => s.projectId);
  const refresh = () => void listProjects().then(setProjects);
  useEffect(refresh, []);
  const t = useT();
  return (
    <Dialog title={t('projects.title')} wide>
      {projects === null ? (
        <p className="muted">{t('projects.loading')}</p>
      ) : projects.length === 0 ? (
        <p className="muted">{t('projects.none')}</p>
      ) : (
        <ul className="projects" aria-label={t('projects.saved')}>
          {projects.map((p) => (
            <ProjectRow key={p.id} rec={p} current={p.id === currentId} refresh={refresh} />
          ))}
        </ul>
      )}
      <div className="dialog-actions">
        <span className="muted small">{t('projects.note')}</span>
        <span className="spacer" />
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => {
            void openAsNewProject(emptyDocument(), 'local');
            setUi({ dialog: null });
          }}
        >
          {t('projects.new')}
        </button>
      </div>
    </Dialog>
  );
}
