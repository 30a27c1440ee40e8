import { editorStore } from '../store/editorStore.ts';
import { getProject, putProject } from './projectDb.ts';

/** Writes the open project to IndexedDB shortly after each change; survives reloads. */
export function startAutosave(delayMs = 300): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let last = { doc: editorStore.get().doc, trusted: editorStore.get().trusted };
  const save = async () => {
    const s = editorStore.get();
    if (!s.projectId) return;
    const prev = await getProject(s.projectId);
    await putProject({ id: s.projectId, doc: s.doc, createdAt: prev?.createdAt ?? Date.now(), updatedAt: Date.now(), origin: s.origin, trusted: s.trusted });
  };
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    void save();
  };
  const unsub = editorStore.subscribe(() => {
    const s = editorStore.get();
    if (s.doc === last.doc && s.trusted === last.trusted) return;
    last = { doc: s.doc, trusted: s.trusted };
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, delayMs);
  });
  const onHide = () => timer && flush();
  window.addEventListener('pagehide', onHide);
  return () => {
    unsub();
    window.removeEventListener('pagehide', onHide);
  };
}
