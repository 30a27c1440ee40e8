/** `weir export <pipeline.json> --to flink-sql [--out file.sql]`: the pipeline as a runnable Flink SQL script. */
import { writeFileSync } from 'node:fs';
import type { Io } from './io.ts';
import { InvalidError } from './io.ts';
import { loadPipeline } from './load.ts';
import { exportPlan } from '../export/flinkSql/index.ts';
import type { FlinkSqlExportOptions } from '../export/flinkSql/index.ts';
import type { ConnectorName } from '../export/flinkSql/options.ts';
import { SINK_CONNECTORS, SOURCE_CONNECTORS } from '../export/flinkSql/options.ts';

export const EXPORT_USAGE = `Usage: weir export <pipeline.json> --to flink-sql [--out <file.sql>] [options]

Writes the pipeline as a Flink SQL script (Flink 1.19+): SET statements, a CREATE TABLE per source
and sink, a temporary view per operator and one EXECUTE STATEMENT SET with an INSERT per sink.
Prints one warning per node that SQL cannot express faithfully on stderr.

Options:
  --to flink-sql                      the target (the only one so far)
  --out <file.sql>                    write the script there instead of stdout
  --connector <nodeId>=<connector>    connector of a source (${SOURCE_CONNECTORS.join(', ')})
                                      or sink (${SINK_CONNECTORS.join(', ')}); repeatable
  --state-backend hashmap|rocksdb     default: rocksdb if the pipeline keeps state in IndexedDB
  --parallelism <n>                   overrides settings.parallelism

Exit codes: 0 ok (even with warnings), 1 invalid pipeline, arguments or target.`;

export const EXPORT_TARGETS = ['flink-sql'] as const;

interface ExportArgs {
  pipeline: string;
  to: string;
  out?: string;
  options: FlinkSqlExportOptions;
}

class ArgError extends Error {}

function parseExportArgs(args: readonly string[]): ExportArgs {
  const positional: string[] = [];
  const flags: [string, string][] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith('--')) {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(0, eq) : a;
    const value = eq > 0 ? a.slice(eq + 1) : args[++i];
    if (!['--to', '--out', '--connector', '--state-backend', '--parallelism'].includes(name)) throw new ArgError(`unknown option ${name}`);
    if (value === undefined || value === '') throw new ArgError(`${name} needs a value`);
    flags.push([name, value]);
  }
  if (positional.length !== 1) throw new ArgError(positional.length ? `one pipeline file at a time; also got ${positional.slice(1).join(' ')}` : 'give the pipeline file to export');
  const parsed: ExportArgs = { pipeline: positional[0], to: '', options: {} };
  const connectors: Record<string, ConnectorName> = {};
  for (const [name, value] of flags) {
    if (name === '--to') parsed.to = value;
    else if (name === '--out') parsed.out = value;
    else if (name === '--connector') {
      const [id, c] = value.split('=');
      if (!id || !c || ![...SOURCE_CONNECTORS, ...SINK_CONNECTORS].includes(c as ConnectorName)) throw new ArgError(`--connector takes <nodeId>=<connector>, got "${value}"`);
      connectors[id] = c as ConnectorName;
    } else if (name === '--state-backend') {
      if (value !== 'hashmap' && value !== 'rocksdb') throw new ArgError(`--state-backend is hashmap or rocksdb, got "${value}"`);
      parsed.options.stateBackend = value;
    } else {
      if (!/^[1-9]\d*$/.test(value)) throw new ArgError(`--parallelism must be a whole number ≥ 1, got "${value}"`);
      parsed.options.parallelism = Number(value);
    }
  }
  if (!parsed.to) throw new ArgError(`--to <target> is required; targets: ${EXPORT_TARGETS.join(', ')}`);
  if (Object.keys(connectors).length) parsed.options.connectors = connectors;
  return parsed;
}

export function exportCommand(args: readonly string[], io: Io): number {
  if (args.includes('--help') || args.includes('-h')) {
    io.out(EXPORT_USAGE);
    return 0;
  }
  let parsed: ExportArgs;
  try {
    parsed = parseExportArgs(args);
  } catch (e) {
    if (!(e instanceof ArgError)) throw e;
    io.err(`weir export: ${e.message}\n\n${EXPORT_USAGE}`);
    return 1;
  }
  if (!(EXPORT_TARGETS as readonly string[]).includes(parsed.to)) {
    io.err(`weir export: unknown target "${parsed.to}"; targets: ${EXPORT_TARGETS.join(', ')}`);
    return 1;
  }
  try {
    const plan = loadPipeline(parsed.pipeline, undefined, { notice: (line) => io.err(line) });
    for (const id of Object.keys(parsed.options.connectors ?? {})) {
      if (!plan.nodes.some((n) => n.id === id && (n.isSource || n.isSink))) throw new InvalidError([`weir export: --connector ${id}: no source or sink with that id`]);
    }
    const { sql, warnings } = exportPlan(plan, parsed.options);
    for (const w of warnings) io.err(`warning: ${w.nodeId ?? '(pipeline)'}: ${w.message}`);
    if (parsed.out) {
      writeFileSync(parsed.out, sql);
      io.err(`wrote ${parsed.out} (${plan.nodes.length} nodes, ${warnings.length} warning${warnings.length === 1 ? '' : 's'})`);
    } else io.out(sql);
    return 0;
  } catch (e) {
    if (!(e instanceof InvalidError)) throw e;
    io.err(e.lines.join('\n'));
    return 1;
  }
}
