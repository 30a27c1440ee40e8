import type { PipelineDocument } from '../../pipeline/document.ts';
import { resetDocument } from '../store/history.ts';
import type { DocOrigin } from '../store/editorStore.ts';
import { carriesCode } from '../../pipeline/udfSites.ts';
import { setTypeProblems } from '../validation/validationStore.ts';
import { runStore } from '../run/runStore.ts';
import { liveEngine } from '../run/engineClient.ts';
import { newProjectId, putProject, rememberLastProject } from './projectDb.ts';
import type { ProjectRecord } from './projectDb.ts';
import { fitSoon } from './fitSoon.ts';

function stopJob(): void {
  void liveEngine()?.stop();
  runStore.set((s) => ({ ...s, snapshot: null }));
}

/** Shows a saved project. */
export function openProject(rec: ProjectRecord): void {
  stopJob();
  setTypeProblems([]);
  resetDocument(rec.doc, { projectId: rec.id, origin: rec.origin, trusted: rec.trusted });
  rememberLastProject(rec.id);
  fitSoon();
}

/**
 * Opens a document as a new project. Code that came by file or link is untrusted until the
 * person says otherwise; examples ship with the app and are trusted.
 */
export async function openAsNewProject(doc: PipelineDocument, origin: DocOrigin): Promise<ProjectRecord> {
  const now = Date.now();
  const trusted = origin === 'local' || origin === 'example' || !carriesCode(doc);
  const rec: ProjectRecord = { id: newProjectId(), doc, createdAt: now, updatedAt: now, origin, trusted };
  await putProject(rec);
  openProject(rec);
  return rec;
}
