import { compile } from '../../pipeline/compile.ts';
import { parseDocumentText } from '../../pipeline/parse.ts';
import type { PipelineDocument } from '../../pipeline/document.ts';
import type { DocOrigin } from '../store/editorStore.ts';
import { toast } from '../store/uiStore.ts';
import { logLocal } from '../run/runStore.ts';
import { openAsNewProject } from './openDocument.ts';
import { t } from '../i18n/i18n.ts';

/**
 * Reads a document from text without letting `__proto__` keys reach prototypes. A document
 * with problems still opens (the Problems panel lists them); one that is not a pipeline does not.
 */
export function readDocument(text: string): { ok: true; doc: PipelineDocument } | { ok: false; message: string } {
  const parsed = parseDocumentText(text);
  if (!parsed.ok) return { ok: false, message: parsed.problem.message };
  const res = compile(parsed.value);
  if (!res.doc) return { ok: false, message: res.problems.map((p) => `${p.field ? `${p.field}: ` : ''}${p.message}`).join('; ') };
  return { ok: true, doc: res.doc };
}

/** `what` names the thing opened, already translated (see `openedWhat`). */
export async function importDocumentText(text: string, origin: DocOrigin, what = t('projects.what.file', { name: '' }).trim()): Promise<boolean> {
  const r = readDocument(text);
  if (!r.ok) {
    toast(t('projects.openFailed', { what, message: r.message }));
    logLocal('error', t('projects.openFailedLog', { what, message: r.message }));
    return false;
  }
  await openAsNewProject(r.doc, origin);
  toast(t('projects.opened', { name: r.doc.name }));
  return true;
}

export async function importDroppedFile(file: File): Promise<boolean> {
  return importDocumentText(await file.text(), 'import', t('projects.what.file', { name: file.name }));
}

/** Shows the browser's file picker for a pipeline JSON file. */
export function pickFile(): void {
  const input = document.createElement('input');
  input.type = 'file';
  input.accept = '.json,application/json';
  input.onchange = () => {
    const f = input.files?.[0];
    if (f) void importDroppedFile(f);
  };
  input.click();
}

const slug = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'pipeline';

export function downloadDocument(doc: PipelineDocument): void {
  const blob = new Blob([`${JSON.stringify(doc, null, 2)}\n`], { type: 'application/json' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = `${slug(doc.name)}.weir.json`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}
