import type { Problem } from './kindSpec.ts';
import { PIPELINE_FORMAT, PIPELINE_VERSION } from './document.ts';

export type MigrateResult = { ok: true; doc: Record<string, unknown>; from: number } | { ok: false; problem: Problem };

/** Each entry upgrades a document from version `from` to `from + 1`. */
export const migrations: { from: number; describe: string; up(doc: Record<string, unknown>): Record<string, unknown> }[] = [];

const problem = (field: string, message: string, code: string): Problem => ({ target: null, targetType: 'document', field, message, code });

/** Brings any older document up to the current version, one step at a time. */
export function migrate(input: unknown): MigrateResult {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    const was = Array.isArray(input) ? 'a list' : input === null ? 'null' : `a ${typeof input}`;
    return { ok: false, problem: problem('', `a pipeline document must be a JSON object { "format": "${PIPELINE_FORMAT}", "version", "name", "nodes", "edges" }, not ${was}`, 'bad-document') };
  }
  let doc = input as Record<string, unknown>;
  if (doc.format !== PIPELINE_FORMAT) {
    const was = doc.format === undefined ? 'is missing' : `is ${JSON.stringify(doc.format)?.slice(0, 40)}`;
    return { ok: false, problem: problem('format', `"format" ${was}; a Weir pipeline file has "format": "${PIPELINE_FORMAT}" (is this a Weir pipeline file?)`, 'bad-format') };
  }
  const from = doc.version;
  if (!Number.isInteger(from) || (from as number) < 1) {
    const was = from === undefined ? 'is missing' : `is ${JSON.stringify(from)?.slice(0, 40)}`;
    return { ok: false, problem: problem('version', `"version" ${was}; it must be a whole number ≥ 1 (this Weir writes version ${PIPELINE_VERSION})`, 'bad-version') };
  }
  if ((from as number) > PIPELINE_VERSION) {
    return { ok: false, problem: problem('version', `this file is version ${from}, newer than this Weir (version ${PIPELINE_VERSION}); update Weir to open it`, 'bad-version') };
  }
  for (let v = from as number; v < PIPELINE_VERSION; v++) {
    const m = migrations.find((x) => x.from === v);
    if (!m) return { ok: false, problem: problem('version', `no migration from version ${v}`, 'bad-version') };
    doc = { ...m.up(doc), version: v + 1 };
  }
  return { ok: true, doc, from: from as number };
}
