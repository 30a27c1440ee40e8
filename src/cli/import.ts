/** `weir import --from flink-sql <script.sql> [--out pipeline.json]`: a script `weir export` wrote, back into a pipeline. */
import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Io } from './io.ts';
import { InvalidError } from './io.ts';
import { readText } from './load.ts';
import { importFlinkSqlLaidOut } from '../import/flinkSql/index.ts';

export const IMPORT_USAGE = `Usage: weir import --from flink-sql <script.sql> [--out <pipeline.json>]

Reads a Flink SQL script as people write it (SET, CREATE TABLE / VIEW / FUNCTION, INSERT INTO …
SELECT with joins, windows, aggregates, Top-N, deduplication and subqueries, statement sets; the
list is in docs/flink-sql.md) and writes the pipeline document. The \`-- @weir\` annotations that
\`weir export --to flink-sql\` writes restore what SQL cannot hold (source data, code, layout).
What Weir cannot plan is reported as <file>:<line>:<column>: <construct>: <problem>, one per line.

Options:
  --from flink-sql        the source language (the only one so far)
  --out <pipeline.json>   write the document there instead of stdout

Exit codes: 0 ok (warnings go to stderr), 1 unsupported SQL, unknown --from or bad arguments.`;

class ArgError extends Error {}

function parseImportArgs(args: readonly string[]): { script: string; from: string; out?: string } {
  const positional: string[] = [];
  let from = '';
  let out: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith('--')) {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(0, eq) : a;
    const value = eq > 0 ? a.slice(eq + 1) : args[++i];
    if (name !== '--from' && name !== '--out') throw new ArgError(`unknown option ${name}`);
    if (value === undefined || value === '') throw new ArgError(`${name} needs a value`);
    if (name === '--from') from = value;
    else out = value;
  }
  if (positional.length !== 1) throw new ArgError(positional.length ? `one script at a time; also got ${positional.slice(1).join(' ')}` : 'give the SQL script to import');
  if (!from) throw new ArgError('--from <language> is required; languages: flink-sql');
  return { script: positional[0], from, out };
}

export async function importCommand(args: readonly string[], io: Io): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.out(IMPORT_USAGE);
    return 0;
  }
  let parsed;
  try {
    parsed = parseImportArgs(args);
  } catch (e) {
    if (!(e instanceof ArgError)) throw e;
    io.err(`weir import: ${e.message}\n\n${IMPORT_USAGE}`);
    return 1;
  }
  if (parsed.from !== 'flink-sql') {
    io.err(`weir import: unknown language "${parsed.from}"; languages: flink-sql`);
    return 1;
  }
  try {
    const result = await importFlinkSqlLaidOut(readText(parsed.script, 'the script'), basename(parsed.script).replace(/\.sql$/i, ''));
    for (const w of result.warnings) io.err(`warning: ${parsed.script}:${w.line}: ${w.message}`);
    if (!result.ok) throw new InvalidError(result.errors.map((e) => `${parsed.script}:${e.line}:${e.column}: ${e.construct}: ${e.message}`));
    const json = JSON.stringify(result.doc, null, 2) + '\n';
    if (parsed.out) {
      writeFileSync(parsed.out, json);
      io.err(`wrote ${parsed.out} (${result.doc.nodes.length} nodes, ${result.doc.edges.length} edges)`);
    } else io.out(json);
    return 0;
  } catch (e) {
    if (!(e instanceof InvalidError)) throw e;
    io.err(e.lines.join('\n'));
    return 1;
  }
}
