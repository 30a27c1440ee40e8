import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CURRENT_FORMAT, checkMigrations, migrate, migrations } from './migrate.ts';
import type { Migration, MigrationSet } from './migrate.ts';
import { PIPELINE_VERSION } from './document.ts';
import { compile } from './compile.ts';
import { loadPipeline } from '../cli/load.ts';

/** A valid version-1 document: inline rows → view. */
const v1 = () => ({
  format: 'weir/pipeline',
  version: 1,
  name: 'm',
  nodes: [
    { id: 'src', kind: 'inlineSource', params: { rows: [{ a: 1 }] } },
    { id: 'out', kind: 'viewSink', params: {} },
  ],
  edges: [{ from: { node: 'src', port: 'out' }, to: { node: 'out', port: 'in' } }],
});

// Temporary format changes that exist only in this test: v2 renames "name" to "title", v3 renames it back.
// Going 1 → 3 must apply both, in order, and end where it started.
const renameToTitle: Migration = {
  from: 1,
  describe: 'name is called title',
  up: ({ name, ...rest }) => ({ ...rest, title: name }),
};
const renameBack: Migration = {
  from: 2,
  describe: 'title is called name again',
  up: ({ title, ...rest }) => ({ ...rest, name: title }),
};
const toV2: MigrationSet = { migrations: [renameToTitle], current: 2 };
const toV3: MigrationSet = { migrations: [renameBack, renameToTitle], current: 3 };

describe('migrate', () => {
  it('has a step from every older version to the current one', () => {
    expect(CURRENT_FORMAT.current).toBe(PIPELINE_VERSION);
    expect(CURRENT_FORMAT.migrations).toBe(migrations);
    expect(checkMigrations(CURRENT_FORMAT)).toEqual([]);
  });

  it('leaves a current document as it is', () => {
    const doc = v1();
    const r = migrate(doc);
    expect(r).toEqual({ ok: true, doc, from: 1 });
  });

  it('runs one migration and bumps the version, without changing the input', () => {
    const doc = v1();
    const r = migrate(doc, toV2);
    expect(r.ok && r.doc).toEqual({ ...(({ name: _, ...rest }) => rest)(v1()), title: 'm', version: 2 });
    expect(r.ok && r.from).toBe(1);
    expect(doc).toEqual(v1());
  });

  it('chains migrations in version order, whatever their order in the list', () => {
    const r = migrate(v1(), toV3);
    expect(r.ok && r.doc).toEqual({ ...v1(), version: 3 });
    const fromTwo = migrate({ ...v1(), version: 2, title: 'x', name: undefined }, toV3);
    expect(fromTwo.ok && fromTwo.doc.name).toBe('x');
    expect(fromTwo.ok && fromTwo.from).toBe(2);
  });

  it('refuses a newer version, a missing step, and a failing step, naming the field', () => {
    const newer = migrate({ ...v1(), version: 3 }, toV2);
    expect(newer).toMatchObject({ ok: false, problem: { field: 'version', code: 'bad-version' } });
    expect(!newer.ok && newer.problem.message).toBe('this file is version 3, newer than this Weir (version 2); update Weir to open it');
    const gap = migrate(v1(), { migrations: [renameBack], current: 3 });
    expect(!gap.ok && gap.problem.message).toMatch(/no migration from version 1 to 2/);
    const throwing = migrate(v1(), { migrations: [{ from: 1, describe: 'x', up: () => { throw new Error('boom'); } }], current: 2 });
    expect(!throwing.ok && throwing.problem.message).toBe('migrating from version 1 to 2 (x) failed: boom');
  });

  it('checkMigrations finds gaps, duplicates and steps out of range', () => {
    expect(checkMigrations(toV3)).toEqual([]);
    expect(checkMigrations({ migrations: [renameBack], current: 3 })).toEqual(['no migration from version 1']);
    expect(checkMigrations({ migrations: [renameToTitle, renameToTitle], current: 2 })).toEqual(['2 migrations from version 1']);
    expect(checkMigrations({ migrations: [renameBack], current: 2 })).toEqual(['no migration from version 1', 'migration from version 2 is outside 1…1']);
  });
});

describe('loading an older document', () => {
  const dir = mkdtempSync(join(tmpdir(), 'weir-migrate-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // A v2 that only adds an optional setting: a v1 document compiles unchanged after it.
  const addsSetting: MigrationSet = { migrations: [{ from: 1, describe: 'settings.parallelism is explicit', up: (d) => ({ ...d, settings: { parallelism: 1, ...(d.settings as object) } }) }], current: 2 };

  it('compiles the migrated document and says it was migrated', () => {
    const file = join(dir, 'old.json');
    writeFileSync(file, JSON.stringify(v1()));
    const notices: string[] = [];
    const plan = loadPipeline(file, undefined, { migrations: addsSetting, notice: (l) => notices.push(l) });
    expect(plan.doc.version).toBe(2);
    expect(plan.doc.settings).toEqual({ parallelism: 1 });
    expect(notices).toEqual([`${file}: migrated from version 1 to 2`]);
    expect(compile(v1(), addsSetting).doc?.version).toBe(2);
  });

  it('says nothing for a current document and rejects a newer one with the file and field', () => {
    const file = join(dir, 'current.json');
    writeFileSync(file, JSON.stringify(v1()));
    const notices: string[] = [];
    loadPipeline(file, undefined, { notice: (l) => notices.push(l) });
    expect(notices).toEqual([]);
    const newer = join(dir, 'newer.json');
    writeFileSync(newer, JSON.stringify({ ...v1(), version: PIPELINE_VERSION + 1 }));
    expect(() => loadPipeline(newer)).toThrow(`${newer}: (document) version: this file is version ${PIPELINE_VERSION + 1}, newer than this Weir (version ${PIPELINE_VERSION}); update Weir to open it`);
  });
});
