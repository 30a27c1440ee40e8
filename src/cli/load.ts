import { readFileSync } from 'node:fs';
import { compile } from '../pipeline/compile.ts';
import { parseDocumentText } from '../pipeline/parse.ts';
import type { Problem } from '../pipeline/kindSpec.ts';
import type { JobPlan } from '../pipeline/plan.ts';
import { InvalidError } from './io.ts';

/** `<file>: <node|edge id or (document)> <field>: <message>`, one line per problem. */
export function formatProblem(file: string, p: Problem): string {
  const target = p.target ?? '(document)';
  // One problem, one line: messages may quote input text that has newlines in it.
  const message = p.message.replace(/\s*\n\s*/g, ' ');
  return p.field ? `${file}: ${target} ${p.field}: ${message}` : `${file}: ${target}: ${message}`;
}

export function readText(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const why = err.code === 'ENOENT' ? 'no such file' : err.code === 'EISDIR' ? 'it is a directory' : err.message;
    throw new InvalidError([`${file}: cannot read ${what}: ${why}`]);
  }
}

/** Reads and compiles a pipeline file; every problem becomes one line of an InvalidError. */
export function loadPipeline(file: string, seed?: number): JobPlan {
  const parsed = parseDocumentText(readText(file, 'the pipeline'));
  if (!parsed.ok) throw new InvalidError([formatProblem(file, parsed.problem)]);
  const doc = parsed.value;
  if (seed !== undefined && doc !== null && typeof doc === 'object' && !Array.isArray(doc)) {
    const d = doc as { settings?: unknown };
    const settings = d.settings && typeof d.settings === 'object' && !Array.isArray(d.settings) ? d.settings : {};
    d.settings = { ...settings, seed };
  }
  const { plan, problems } = compile(doc);
  if (!plan || problems.length) throw new InvalidError(problems.map((p) => formatProblem(file, p)));
  return plan;
}
