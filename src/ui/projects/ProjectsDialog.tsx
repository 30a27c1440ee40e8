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

const when = (t: number): string => new Date(t).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function ProjectRow({ rec, current, refresh }: { rec: ProjectRecord; current: boolean; refresh(): void }) {
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(rec.doc.name);
  const [confirm, setConfirm] = useState(false);
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
          <input className="input" aria-label="Project name" value={name} autoFocus onChange={(e) => setName(e.target.value)} onBlur={() => void rename()} onKeyDown={(e) => e.key === 'Enter' && void rename()} />
        ) : (
          <div className="project-name">
            {rec.doc.name} {current && <span className="chip chip-small">open</span>}
          </div>
        )}
        <div className="muted small">
          {rec.doc.nodes.length} operators · edited {when(rec.updatedAt)}
        </div>
      </div>
      <div className="project-actions">
        <button type="button" className="btn btn-small" onClick={() => (openProject(rec), setUi({ dialog: null }))} disabled={current}>
          Open
        </button>
        <button type="button" className="btn btn-small" onClick={() => setRenaming(true)}>
          Rename
        </button>
        <button
          type="button"
          className="btn btn-small"
          onClick={async () => {
            const now = Date.now();
            await putProject({ ...rec, id: newProjectId(), doc: { ...structuredClone(rec.doc), name: `${rec.doc.name} (copy)` }, createdAt: now, updatedAt: now });
            refresh();
          }}
        >
          Duplicate
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
            Really delete
          </button>
        ) : (
          <button type="button" className="btn btn-small" onClick={() => setConfirm(true)}>
            Delete
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
  return (
    <Dialog title="Projects" wide>
      {projects === null ? (
        <p className="muted">Loading…</p>
      ) : projects.length === 0 ? (
        <p className="muted">No saved projects yet.</p>
      ) : (
        <ul className="projects" aria-label="Saved projects">
          {projects.map((p) => (
            <ProjectRow key={p.id} rec={p} current={p.id === currentId} refresh={refresh} />
          ))}
        </ul>
      )}
      <p className="muted small">Projects save themselves as you edit and stay in this browser. Download a file or share a link to move them elsewhere.</p>
    </Dialog>
  );
}
