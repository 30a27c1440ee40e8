import type { Problem } from './kindSpec.ts';
import { PIPELINE_FORMAT, PIPELINE_VERSION } from './document.ts';

export type MigrateResult = { ok: true; doc: Record<string, unknown>; from: number } | { ok: false; problem: Problem };

/** Upgrades a document from version `from` to `from + 1`; it may change the copy it is given. */
export interface Migration {
  from: number;
  /** What changed in the format, for release notes and the "migrated" notice. */
  describe: string;
  up(doc: Record<string, unknown>): Record<string, unknown>;
}

/** The migrations a reader knows and the version it writes; tests pass their own. */
export interface MigrationSet {
  migrations: readonly Migration[];
  current: number;
}

/**
 * Version 1 is the only version so far. To change the format: raise PIPELINE_VERSION, add here a
 * Migration from the previous version, and test it in migrate.test.ts (see docs/pipeline-format.md).
 */
export const migrations: Migration[] = [];

export const CURRENT_FORMAT: MigrationSet = { migrations, current: PIPELINE_VERSION };

const problem = (field: string, message: string, code: string): Problem => ({ target: null, targetType: 'document', field, message, code });

/** The notice a loader prints for a migrated document. */
export const migrationNotice = (from: number, to: number): string => `migrated from version ${from} to ${to}`;

/**
 * Brings any older document up to the current version, one step at a time. The input is
 * never changed: migrations work on a copy, so a caller can still show what it loaded.
 */
export function migrate(input: unknown, set: MigrationSet = CURRENT_FORMAT): MigrateResult {
  const { current } = set;
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
    return { ok: false, problem: problem('version', `"version" ${was}; it must be a whole number ≥ 1 (this Weir writes version ${current})`, 'bad-version') };
  }
  if ((from as number) > current) {
    return { ok: false, problem: problem('version', `this file is version ${from}, newer than this Weir (version ${current}); update Weir to open it`, 'bad-version') };
  }
  if ((from as number) < current) doc = structuredClone(doc);
  for (let v = from as number; v < current; v++) {
    const m = set.migrations.find((x) => x.from === v);
    if (!m) return { ok: false, problem: problem('version', `no migration from version ${v} to ${v + 1}; this file cannot be opened by this Weir`, 'bad-version') };
    try {
      doc = { ...m.up(doc), version: v + 1 };
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      return { ok: false, problem: problem('version', `migrating from version ${v} to ${v + 1} (${m.describe}) failed: ${why}`, 'bad-version') };
    }
  }
  return { ok: true, doc, from: from as number };
}

/** Faults in a migration set: each version below the current one needs exactly one step up. */
export function checkMigrations(set: MigrationSet): string[] {
  const faults: string[] = [];
  for (let v = 1; v < set.current; v++) {
    const n = set.migrations.filter((m) => m.from === v).length;
    if (n !== 1) faults.push(n === 0 ? `no migration from version ${v}` : `${n} migrations from version ${v}`);
  }
  for (const m of set.migrations) if (m.from < 1 || m.from >= set.current) faults.push(`migration from version ${m.from} is outside 1…${set.current - 1}`);
  return faults;
}
