import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openDB } from 'idb';
import { deleteSourceFiles, putSourceFile, sourceFileStore, syncSourceFiles } from './sourceFiles.ts';
import { deleteProject, putProject } from './projectDb.ts';
import { editorStore, emptyDocument } from '../store/editorStore.ts';
import type { PipelineDocument } from '../../pipeline/document.ts';

/** The node ids whose files IndexedDB keeps for `project`. */
async function kept(project: string): Promise<string[]> {
  const db = await openDB('weir-source-files', 1);
  const keys = (await db.getAllKeys('files')) as string[];
  db.close();
  return keys.filter((k) => k.startsWith(`${project}\u0000`)).map((k) => k.slice(project.length + 1)).sort();
}

const withFiles = (...ids: string[]): PipelineDocument => ({ ...emptyDocument('p'), nodes: ids.map((id) => ({ id, kind: 'fileSource', params: {} })) });

function open(project: string, doc: PipelineDocument, past: PipelineDocument[] = []): void {
  editorStore.set((s) => ({ ...s, projectId: project, doc, committed: doc, past, future: [] }));
}

describe('kept source files', () => {
  it('are removed when no file source refers to them, but kept while undo can bring the node back', async () => {
    open('p1', withFiles('a', 'b', 'c'));
    await syncSourceFiles('p1');
    for (const id of ['a', 'b', 'c']) await putSourceFile('p1', id, new Blob([`data of ${id}`]), `${id}.csv`);
    expect(await kept('p1')).toEqual(['a', 'b', 'c']);
    // b was deleted in this session (undo can bring it back); c was deleted before the page loaded.
    open('p1', withFiles('a'), [withFiles('a', 'b')]);
    await syncSourceFiles('other');
    await syncSourceFiles('p1');
    expect(await kept('p1')).toEqual(['a', 'b']);
    expect(Object.keys(sourceFileStore.get()).sort()).toEqual(['a', 'b']);
    // The undo history is gone (a reload): b's file goes too.
    open('p1', withFiles('a'));
    await syncSourceFiles('other');
    await syncSourceFiles('p1');
    expect(await kept('p1')).toEqual(['a']);
    expect(await sourceFileStore.get().a.blob.text()).toBe('data of a');
  });

  it('go with their project', async () => {
    open('p2', withFiles('x'));
    await syncSourceFiles('p2');
    await putSourceFile('p2', 'x', new Blob(['x']), 'x.csv');
    await putSourceFile('p3', 'x', new Blob(['y']), 'x.csv');
    await putProject({ id: 'p2', doc: withFiles('x'), createdAt: 1, updatedAt: 1, origin: 'local', trusted: true });
    await deleteProject('p2');
    expect(await kept('p2')).toEqual([]);
    expect(await kept('p3')).toEqual(['x']);
    await deleteSourceFiles('p3');
    expect(await kept('p3')).toEqual([]);
  });
});
