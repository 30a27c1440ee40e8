import { EXPORT_USAGE } from './export.ts';
import { IMPORT_USAGE } from './import.ts';
import { TEST_USAGE } from './testCommand.ts';

export const MAIN_USAGE = `weir: run and check Weir stream-processing pipelines

Usage:
  weir validate <pipeline.json|script.sql>...
  weir run <pipeline.json|script.sql> --out <dir|-> [--input <sourceId>=<file.jsonl|->]... [--seed N]
  weir test <pipeline.json>... [--junit <out.xml>]
  weir export <pipeline.json> --to flink-sql [--out <file.sql>]
  weir import --from flink-sql <script.sql> [--out <pipeline.json>]
  weir <command> --help

Commands:
  validate   check pipeline documents and report every problem
  run        run a pipeline to the end of its input and write its results
  test       run the tests saved in pipelines and show a diff for each failure
  export     write the pipeline as a Flink SQL script for a real cluster
  import     plan a Flink SQL script into a pipeline document

Exit codes: 0 ok, 1 invalid pipeline or arguments, 2 failure while running.
Set WEIR_DEBUG=1 to print stack traces.`;

export const VALIDATE_USAGE = `Usage: weir validate <pipeline.json>...

Compiles each pipeline document (schema, params, ports, types, cycles) without running it.
Prints "ok: <name> (<n> nodes, <m> edges)" for a valid document, otherwise one line per problem:
  <file>: <node or edge id, or (document)> <field>: <message>

Exit codes: 0 all valid, 1 a document is invalid or cannot be read.`;

export const RUN_USAGE = `Usage: weir run <pipeline.json|script.sql> --out <dir|-> [--input <sourceId>=<file.jsonl|-|ws://…|sse+http://…>]... [--seed N]

Runs the pipeline to the end of its input in process, deterministically. A Flink SQL script
(*.sql) is planned first, as \`weir import --from flink-sql\` does: each table a query reads is a
fileSource named after the table (give it --input <table>=<file.jsonl>, or its 'path' option is read). With an input of "-"
it runs live: records are processed as they arrive on standard input and results are written
as they are produced; processing time is wall-clock time.

Options:
  --out <dir>                   where to write results (created if missing)
  --out -                       stream every sink's changelog to standard output, one line each:
                                {"sink":"id","kind":"+I","row":{...}}; dead letters as
                                {"deadLetter":"nodeId","line":N,"reason":"...","raw":"..."}
  --input <sourceId>=<file>     input for the fileSource node <sourceId> (JSON Lines; .csv/.tsv with a
                                header, types inferred; .json array), read as the browser reads it; repeatable.
                                Without it a fileSource reads its params.path, relative to the pipeline file.
  --input <sourceId>=-          read that source from standard input, live (one source at most)
  --input <sourceId>=ws://host:port/path       read that source from a WebSocket feed, live (wss:// too)
  --input <sourceId>=sse+http://host:port/path read it from Server-Sent Events, live (sse+https:// too);
                                a live run goes on until every feed closes (exit 0; 2 when one failed)
                                or Ctrl-C; a feedSource node connects to its params.url by itself
  --seed <N>                    overrides settings.seed (a whole number, 0 to 4294967295)

Writes, for every sink:        <dir>/<sinkId>.changelog.jsonl   {"kind":"+I","row":{...}} per line
                               <dir>/<sinkId>.view.json         the final table, sorted by primary key
for every node with bad input: <dir>/<nodeId>.dead-letter.jsonl {"line":N,"reason":"...","raw":"..."} per line
and a summary on stderr.

Exit codes: 0 ok, 1 invalid pipeline or arguments, 2 failure while running.`;

const USAGE: Record<string, string> = { run: RUN_USAGE, validate: VALIDATE_USAGE, test: TEST_USAGE, export: EXPORT_USAGE, import: IMPORT_USAGE };

export const usageFor = (command: string | undefined): string => (command && USAGE[command]) || MAIN_USAGE;
