import { openDB } from 'idb';
import type { DBSchema, IDBPDatabase } from 'idb';
import { createStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import type { PipelineDocument } from '../../pipeline/document.ts';

/** A file given to a file source, kept as a Blob so a reload or a resume can read it again. */
export interface SourceFile {
  name: string;
  size: number;
  lastModified: number;
  blob: Blob;
}

interface SourceFilesDb extends DBSchema {
  files: { key: string; value: SourceFile & { key: string } };
}

/** Node id → its file, for the open project (a reactive copy of what IndexedDB holds). */
export const sourceFileStore = createStore<Record<string, SourceFile>>({});

let db: Promise<IDBPDatabase<SourceFilesDb>> | null = null;
const open = (): Promise<IDBPDatabase<SourceFilesDb>> =>
  (db ??= openDB<SourceFilesDb>('weir-source-files', 1, {
    upgrade(d) {
      d.createObjectStore('files', { keyPath: 'key' });
    },
  }));

const keyOf = (project: string, node: string): string => `${project}\u0000${node}`;

/**
 * Keeps `file` for node `node` of `project`. IndexedDB stores a Blob by reference to its bytes
 * (the browser copies it to disk itself), so even a large file is not read into memory here.
 * When storage is refused (private mode, full), the file still serves this tab.
 */
export async function putSourceFile(project: string | null, node: string, blob: Blob, name: string, lastModified = 0): Promise<SourceFile> {
  const rec: SourceFile = { name, size: blob.size, lastModified, blob };
  sourceFileStore.set((m) => ({ ...m, [node]: rec }));
  if (project) {
    try {
      await (await open()).put('files', { ...rec, key: keyOf(project, node) });
    } catch {
      /* not persisted: a reload will ask for the file again */
    }
  }
  return rec;
}

let loadedFor: string | null = null;
let loading: Promise<void> = Promise.resolve();

/**
 * Makes the store hold `project`'s files: loaded from IndexedDB when another project opens; files
 * given before the project had an id (a new, unsaved document) are kept under its new id.
 * Callers that ask while a load is under way wait for that load.
 */
export function syncSourceFiles(project: string | null): Promise<void> {
  if (project === loadedFor) return loading;
  const before = loadedFor;
  loadedFor = project;
  const adopt = before === null && project !== null && Object.keys(sourceFileStore.get()).length > 0;
  loading = adopt ? adoptUnsaved(project) : loadSourceFiles(project);
  return loading;
}

async function adoptUnsaved(project: string): Promise<void> {
  for (const [node, f] of Object.entries(sourceFileStore.get())) await putSourceFile(project, node, f.blob, f.name, f.lastModified);
}

async function loadSourceFiles(project: string | null): Promise<void> {
  if (!project) {
    sourceFileStore.set({});
    return;
  }
  try {
    const d = await open();
    const prefix = keyOf(project, '');
    const all = await d.getAll('files', projectRange(project));
    sourceFileStore.set(Object.fromEntries(all.map(({ key, ...f }) => [key.slice(prefix.length), f])));
  } catch {
    sourceFileStore.set({});
  }
  await pruneSourceFiles(project);
}

const projectRange = (project: string): IDBKeyRange => IDBKeyRange.bound(keyOf(project, ''), `${keyOf(project, '')}\uffff`);

/** File-source node ids of the open document and of every document undo or redo can bring back. */
function referencedNodes(): Set<string> {
  const { doc, past, future } = editorStore.get();
  const ids = new Set<string>();
  const add = (d: PipelineDocument) => d.nodes.forEach((n) => n.kind === 'fileSource' && ids.add(n.id));
  [doc, ...past, ...future].forEach(add);
  return ids;
}

/**
 * Forgets the kept files of `project` that no file source refers to any more: not the open
 * document, and no document undo or redo can bring back (so an undone delete still has its file).
 * Runs when a project's files load and before each run. Returns how many files it removed.
 */
export async function pruneSourceFiles(project: string | null): Promise<number> {
  if (!project || editorStore.get().projectId !== project) return 0;
  const live = referencedNodes();
  const prefix = keyOf(project, '');
  const gone = Object.keys(sourceFileStore.get()).filter((node) => !live.has(node));
  if (gone.length) sourceFileStore.set((m) => Object.fromEntries(Object.entries(m).filter(([node]) => live.has(node))));
  let removed = 0;
  try {
    const tx = (await open()).transaction('files', 'readwrite');
    for (const key of await tx.store.getAllKeys(projectRange(project))) {
      if (live.has(key.slice(prefix.length))) continue;
      await tx.store.delete(key);
      removed++;
    }
    await tx.done;
  } catch {
    /* storage refused: the next load tries again */
  }
  return removed;
}

/** Forgets every kept file of a deleted project. */
export async function deleteSourceFiles(project: string): Promise<void> {
  try {
    await (await open()).delete('files', projectRange(project));
  } catch {
    /* storage refused: nothing was kept */
  }
  if (loadedFor === project) sourceFileStore.set({});
}

/** The files of the given file-source nodes that this browser holds. */
export function filesFor(nodeIds: readonly string[]): Record<string, { name: string; blob: Blob }> {
  const m = sourceFileStore.get();
  return Object.fromEntries(nodeIds.filter((id) => m[id]).map((id) => [id, { name: m[id].name, blob: m[id].blob }]));
}
