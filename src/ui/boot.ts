import { SHARE_PREFIX, decodeShare } from './projects/share.ts';
import { importDocumentText } from './projects/fileIO.ts';
import { getProject, lastProjectId, listProjects } from './projects/projectDb.ts';
import { loadExamples } from './projects/examples.ts';
import { openAsNewProject, openProject } from './projects/openDocument.ts';
import { toast } from './store/uiStore.ts';

/** A share link in the hash opens as a new project; the hash is then cleared so a reload does not import it twice. */
export async function openFromHash(): Promise<boolean> {
  const hash = location.hash;
  if (!hash.startsWith(SHARE_PREFIX)) return false;
  history.replaceState(null, '', `${location.pathname}${location.search}`);
  try {
    return await importDocumentText(decodeShare(hash.slice(SHARE_PREFIX.length)), 'link', 'link');
  } catch (e) {
    toast(`Could not open the link: ${(e as Error).message}`);
    return false;
  }
}

/** First screen: a shared link, else the last project, else the newest project, else the first example. */
export async function boot(): Promise<void> {
  try {
    await firstScreen();
  } finally {
    // Tests and scripts wait for this before they touch the page.
    document.body.dataset.ready = 'true';
  }
}

async function firstScreen(): Promise<void> {
  if (await openFromHash()) return;
  try {
    const last = lastProjectId();
    const rec = (last && (await getProject(last))) || (await listProjects())[0];
    if (rec) return openProject(rec);
  } catch {
    toast('Projects cannot be saved here (IndexedDB is unavailable)');
  }
  const first = (await loadExamples()).find((e) => e.doc);
  if (first?.doc) await openAsNewProject(structuredClone(first.doc), 'example');
}
