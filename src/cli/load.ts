import { readFileSync } from 'node:fs';
import { compile } from '../pipeline/compile.ts';
import { parseDocumentText } from '../pipeline/parse.ts';
import type { Problem } from '../pipeline/kindSpec.ts';
import type { JobPlan } from '../pipeline/plan.ts';
import { InvalidError } from './io.ts';
import { PIPELINE_VERSION } from '../pipeline/document.ts';
import { migrationNotice } from '../pipeline/migrate.ts';
import type { MigrationSet } from '../pipeline/migrate.ts';
import { importFlinkSql } from '../import/flinkSql/index.ts';

/** `<file>: <node|edge id or (document)> <field>: <message>`, one line per problem. */
export function formatProblem(file: string, p: Problem): string {
  const target = p.target ?? '(document)';
  // One problem, one line: messages may quote input text that has newlines in it.
  const message = p.message.replace(/\s*\n\s*/g, ' ');
  return p.field ? `${file}: ${target} ${p.field}: ${message}` : `${file}: ${target}: ${message}`;
}

/** Reads a file, or standard input to its end when given file descriptor 0. */
export function readText(file: string | 0, what: string): string {
  try {
    return readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const why = err.code === 'ENOENT' ? 'no such file' : err.code === 'EISDIR' ? 'it is a directory' : err.message;
    throw new InvalidError([`${file === 0 ? 'standard input' : file}: cannot read ${what}: ${why}`]);
  }
}

export interface LoadOptions {
  /** Told when the document was written by an older Weir and migrated on load. */
  notice?: (line: string) => void;
  /** The known format versions; tests pass their own. */
  migrations?: MigrationSet;
}

/** Reads and compiles a pipeline file; every problem becomes one line of an InvalidError. */
/** A Flink SQL script (`*.sql`), planned into a pipeline document; its warnings go to `notice`. */
function planScriptFile(file: string, opts: LoadOptions): unknown {
  const name = file.replace(/^.*[\\/]/, '').replace(/\.sql$/i, '');
  const result = importFlinkSql(readText(file, 'the script'), name);
  for (const w of result.warnings) opts.notice?.(`warning: ${file}:${w.line}: ${w.message}`);
  if (!result.ok) throw new InvalidError(result.errors.map((e) => `${file}:${e.line}:${e.column}: ${e.construct}: ${e.message}`));
  return result.doc;
}

/** Reads and compiles a pipeline file (or plans a Flink SQL script); every problem becomes one line of an InvalidError. */
export function loadPipeline(file: string, seed?: number, opts: LoadOptions = {}): JobPlan {
  let doc: unknown;
  if (/\.sql$/i.test(file)) doc = planScriptFile(file, opts);
  else {
    const parsed = parseDocumentText(readText(file, 'the pipeline'));
    if (!parsed.ok) throw new InvalidError([formatProblem(file, parsed.problem)]);
    doc = parsed.value;
  }
  const written = (doc as { version?: unknown } | null)?.version;
  if (seed !== undefined && doc !== null && typeof doc === 'object' && !Array.isArray(doc)) {
    const d = doc as { settings?: unknown };
    const settings = d.settings && typeof d.settings === 'object' && !Array.isArray(d.settings) ? d.settings : {};
    d.settings = { ...settings, seed };
  }
  const { plan, problems } = compile(doc, opts.migrations);
  if (!plan || problems.length) throw new InvalidError(problems.map((p) => formatProblem(file, p)));
  const current = opts.migrations?.current ?? PIPELINE_VERSION;
  if (typeof written === 'number' && written < current) opts.notice?.(`${file}: ${migrationNotice(written, current)}`);
  return plan;
}
