import { openDB } from 'idb';
import type { DBSchema, IDBPDatabase } from 'idb';
import type { PipelineDocument } from '../../pipeline/document.ts';
import type { DocOrigin } from '../store/editorStore.ts';
import { deleteSourceFiles } from './sourceFiles.ts';

export interface ProjectRecord {
  id: string;
  doc: PipelineDocument;
  createdAt: number;
  updatedAt: number;
  origin: DocOrigin;
  trusted: boolean;
}

interface WeirDesignerDb extends DBSchema {
  projects: { key: string; value: ProjectRecord; indexes: { updatedAt: number } };
}

let db: Promise<IDBPDatabase<WeirDesignerDb>> | null = null;

function open(): Promise<IDBPDatabase<WeirDesignerDb>> {
  db ??= openDB<WeirDesignerDb>('weir-designer', 1, {
    upgrade(d) {
      const s = d.createObjectStore('projects', { keyPath: 'id' });
      s.createIndex('updatedAt', 'updatedAt');
    },
  });
  return db;
}

export async function listProjects(): Promise<ProjectRecord[]> {
  const all = await (await open()).getAll('projects');
  return all.sort((a, b) => b.updatedAt - a.updatedAt);
}

export const getProject = async (id: string): Promise<ProjectRecord | undefined> => (await open()).get('projects', id);
export const putProject = async (rec: ProjectRecord): Promise<void> => void (await (await open()).put('projects', rec));
/** Removes the project and the files its file sources kept. */
export async function deleteProject(id: string): Promise<void> {
  await (await open()).delete('projects', id);
  await deleteSourceFiles(id);
}

export const newProjectId = (): string => (typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : `p-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`);

const LAST = 'weir.lastProject';
export const rememberLastProject = (id: string): void => {
  try {
    localStorage.setItem(LAST, id);
  } catch {
    /* storage disabled: the next load opens the newest project instead */
  }
};
export const lastProjectId = (): string | null => {
  try {
    return localStorage.getItem(LAST);
  } catch {
    return null;
  }
};
