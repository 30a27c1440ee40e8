/**
 * Hostile and broken user code, one case per way it used to escape or crash the command line,
 * run by the real `weir` binary; each case says what the run must end with. The code sits in node
 * m of one of these pipelines (see userCode.test.ts):
 * - map: visits (fileSource) → m (map) → spend (sum and count per customer) → view;
 * - process: visits → by (keyBy customer) → m (process) → spend → view;
 * - broadcast: visits and rules (fileSource) → m (broadcastProcess) → spend → view;
 * - udaf: visits → m (aggregate per customer: the user aggregate over amount, and count) → view.
 */
export type CodeNode = 'map' | 'process' | 'broadcast' | 'udaf';

export interface UserCodeCase {
  name: string;
  /** Which pipeline carries the code (map when absent). */
  node?: CodeNode;
  /** The map's code; MARK is replaced by a file path the code must not be able to create. */
  code: string;
  /** Extra `weir run` arguments (the case adds --trust-code itself unless `untrusted`). */
  args?: string[];
  untrusted?: boolean;
  exit: number;
  /** Must appear on standard error. */
  stderr?: RegExp;
  /** Every record is a dead letter of node m (or of `deadLetterNode`), with a reason matching this. */
  deadLetters?: RegExp;
  deadLetterNode?: string;
  /**
   * Every dead letter also names where its record was read: the input file (orders.jsonl), the
   * source (visits) and the line, which must hold that very record.
   */
  deadLettersAt?: boolean;
  /** The view equals the view of the same pipeline with harmless code (CLEAN_CODE). */
  sameViewAsClean?: boolean;
  /** A limit case must end before this many ms: it stops by itself, long before the test kills a hung run at 60 s (a bound for a loaded machine, not a speed target). */
  withinMs?: number;
}

export const INPUT_LINES = 600;
/** The input's file name; line i + 1 holds { customer: `c${i % 10}`, amount: i % 7 }. */
export const INPUT_FILE = 'orders.jsonl';

/** Code that passes records on unchanged (for udaf: a plain sum), the reference for `sameViewAsClean`. */
export const CLEAN_CODE: Record<CodeNode, string> = {
  map: '(row) => ({ ...row })',
  process: '({ processElement(row, ctx) { ctx.emit({ ...row }); } })',
  broadcast: '(row, rules) => ({ ...row })',
  udaf: '({ create() { return 0; }, add(acc, v) { return acc + v; }, retract(acc, v) { return acc - v; }, get(acc) { return acc; } })',
};

/**
 * A map that loops for ever on the records with customer c2 and amount 2 only: the first is on
 * line 3 of the input (later ones, 73, 143, …, come after it at every parallelism: round-robin
 * gives every one of them to the subtask that gets line 3).
 */
const loopOnLine3 = '(row) => {\n  if (row.customer === "c2" && row.amount === 2) {\n    while (true) {}\n  }\n  return row;\n}';

/** A process function whose loop never ends on its third line. */
const processLoop = ['({', '  processElement(row, ctx) {', '    while (row.amount >= 0) {}', '  },', '})'].join('\n');

export const userCodeCases: UserCodeCase[] = [
  {
    name: 'without --trust-code and without a terminal, code does not run: exit 2 naming the node and the flag',
    code: '(row) => ({ ...row })',
    untrusted: true,
    exit: 2,
    stderr: /not run: the pipeline carries user code in node "m"[\s\S]*--trust-code/,
  },
  {
    name: 'import("fs") cannot write a file',
    code: '(row) => { import("fs").then((f) => f.writeFileSync("MARK", "x")); return { ...row }; }',
    exit: 0,
    sameViewAsClean: true,
  },
  {
    name: 'the Function constructor does not reach process',
    code: '(row) => { const p = (() => {}).constructor("return process")(); p.mainModule.require("fs").writeFileSync("MARK", "x"); return row; }',
    exit: 0,
    deadLetters: /map code threw: process is not defined/,
  },
  {
    name: 'replacing JSON and Object.prototype getters stays inside the code realm',
    code:
      '(row) => { JSON.parse = () => ({}); JSON.stringify = () => "{}"; Object.defineProperty(Object.prototype, "total", { get() { throw new Error("tampered"); }, configurable: true }); Object.defineProperty(Array.prototype, "0", { set() {}, configurable: true }); return { ...row }; }',
    exit: 0,
    sameViewAsClean: true,
  },
  {
    name: 'process.exit(7) in a map does not end the run',
    code: '(row) => { process.exit(7); }',
    exit: 0,
    deadLetters: /map code threw: process is not defined/,
  },
  {
    name: 'setTimeout(() => process.exit(9)) does not end the run',
    code: '(row) => { setTimeout(() => process.exit(9), 0); return row; }',
    exit: 0,
    deadLetters: /map code threw: setTimeout is not defined/,
  },
  {
    name: 'while (true) {} stops a single-threaded run naming the node, the record, the line of the code and the limit',
    code: '(row) => {\n  let n = 0;\n  while (true) { n++; }\n}',
    args: ['--code-timeout', '300'],
    exit: 2,
    stderr: /node "m": map code ran longer than the 300 ms limit per batch at record 1 of a batch of \d+: \{"customer":"c0","amount":0\}, in line 3 of the code: while \(true\) \{ n\+\+; \}; .*--code-timeout/,
    withinMs: 40_000,
  },
  {
    name: 'while (true) {} at parallelism 2 stops the run once, without restarts',
    code: '(row) => { while (true) {} }',
    args: ['--code-timeout', '300', '--parallelism', '2'],
    exit: 2,
    stderr: /node "m": map code ran longer than the 300 ms limit per batch/,
    withinMs: 40_000,
  },
  {
    name: 'an endless loop on the record of line 3 of the input names orders.jsonl:3 and the source',
    code: loopOnLine3,
    args: ['--code-timeout', '300'],
    exit: 2,
    stderr: /node "m": map code ran longer than the 300 ms limit per batch at record 3 of a batch of \d+: \{"customer":"c2","amount":2\}, in line 3 of the code: while \(true\) \{\}; that record came from \S*orders\.jsonl:3 \(source "visits"\); fix the code .*--code-timeout/,
    withinMs: 40_000,
  },
  {
    name: 'an endless loop on the record of line 3 names orders.jsonl:3 at parallelism 2 too',
    code: loopOnLine3,
    args: ['--code-timeout', '300', '--parallelism', '2'],
    exit: 2,
    stderr: /node "m": map code ran longer than the 300 ms limit per batch at record \d+ of a batch of \d+: \{"customer":"c2","amount":2\}, in line 3 of the code: while \(true\) \{\}; that record came from \S*orders\.jsonl:3 \(source "visits"\); fix the code/,
    withinMs: 40_000,
  },
  {
    name: 'a map that throws: each dead letter names the file, the source and the line its record was read from',
    code: '(row) => { throw new Error("bad " + row.customer); }',
    exit: 0,
    stderr: /\n    m first: \S*orders\.jsonl:1 \(source visits\): map code threw: bad c0/,
    deadLetters: /^map code threw: bad c\d \(in line 1 of the code/,
    deadLettersAt: true,
  },
  {
    name: 'a map that throws at parallelism 2: each dead letter names the file, the source and the line',
    code: '(row) => { throw new Error("bad " + row.customer); }',
    args: ['--parallelism', '2'],
    exit: 0,
    stderr: /\n    m first: \S*orders\.jsonl:1 \(source visits\): map code threw: bad c0/,
    deadLetters: /^map code threw: bad c\d/,
    deadLettersAt: true,
  },
  {
    name: 'a result with a throwing getter is a dead letter',
    code: '(row) => ({ ...row, get amount() { throw new Error("getter"); } })',
    exit: 0,
    deadLetters: /map code returned the wrong shape: field amount has a getter that threw: getter/,
  },
  {
    name: 'an allocation bomb hits the memory limit with a clear error',
    code: '(row) => { const a = []; for (;;) a.push(new Array(1e5).fill(row)); }',
    args: ['--code-memory', '64'],
    exit: 2,
    stderr: /node "m": map code used more than the 64 MB memory limit/,
    withinMs: 40_000,
  },
  {
    name: 'a Promise from an async map is a dead letter',
    code: 'async (row) => ({ ...row })',
    exit: 0,
    deadLetters: /the result is a Promise: user code must return its result synchronously/,
  },
  {
    name: 'Symbol keys are a dead letter',
    code: '(row) => ({ ...row, [Symbol("k")]: 1 })',
    exit: 0,
    deadLetters: /the result has 1 Symbol key; a record has string keys only/,
  },
  {
    name: 'a BigInt is a dead letter',
    code: '(row) => ({ ...row, amount: BigInt(row.amount) })',
    exit: 0,
    deadLetters: /field amount is the BigInt \d+n; a record holds JSON numbers/,
  },
  {
    name: 'an array returned by a map is a dead letter that says array and points to flatMap',
    code: '(row) => [row]',
    exit: 0,
    deadLetters: /^map returned an array, not an object \(return one record as \{ field: value, … \}; use flatMap for several\)$/,
  },
  {
    name: 'a map whose block body returns nothing says so, not "returned null"',
    code: '(row) => { ({ ...row }); }',
    exit: 0,
    deadLetters: /^map returned nothing \(undefined: does a \{ … \} body lack its return\?\), not an object/,
  },
  {
    name: 'a non-Error throw says what was thrown',
    code: '(row) => { throw undefined; }',
    exit: 0,
    deadLetters: /map code threw: undefined \(not an Error: throw new Error/,
  },

  {
    name: 'text where SUM expects a number is a dead letter of the aggregate naming the call, the field and the value',
    code: '(row) => ({ ...row, amount: String(row.amount) })',
    exit: 0,
    deadLetterNode: 'spend',
    deadLetters: /^node "spend": SUM\(amount\) as "total" got the text "\d" in field "amount", which is not a number; convert it upstream/,
  },
  ...['process', 'broadcast', 'udaf'].flatMap((kind) => codeKindCases(kind as Exclude<CodeNode, 'map'>)),
  {
    name: 'process: value, list and map state survive kills and restores under --chaos at parallelism 2: the view equals the clean run',
    node: 'process',
    code: `({
      state: { total: { kind: 'value' }, n: { kind: 'value' }, seen: { kind: 'list' }, byAmount: { kind: 'map' } },
      processElement(row, ctx) {
        ctx.state.total.update((ctx.state.total.value() ?? 0) + row.amount);
        ctx.state.n.update((ctx.state.n.value() ?? 0) + 1);
        ctx.state.byAmount.put(row.amount, (ctx.state.byAmount.get(row.amount) ?? 0) + 1);
        if (ctx.state.seen.get().length < 3) ctx.state.seen.add(row.amount);
        ctx.emit({ ...row });
      },
    })`,
    args: ['--parallelism', '2', '--chaos', '3', '--checkpoint-interval', '50'],
    exit: 0,
    sameViewAsClean: true,
  },
];

/** The same four hostile kinds of code for each kind of code node but map. */
function codeKindCases(node: Exclude<CodeNode, 'map'>): UserCodeCase[] {
  const what = { process: 'process code', broadcast: 'broadcast code', udaf: 'aggregate "total" code' }[node];
  const body = (stmt: string) =>
    node === 'process'
      ? `({ processElement(row, ctx) { ${stmt}; ctx.emit(row); } })`
      : node === 'broadcast'
        ? `(row, rules) => { ${stmt}; return row; }`
        : `({ create() { return 0; }, add(acc, v) { ${stmt}; return acc + v; }, get(acc) { return acc; } })`;
  return [
    {
      name: `${node}: an endless loop stops the run naming the node, the record, the line and the limit`,
      node,
      code: node === 'process' ? processLoop : body('while (true) {}'),
      args: ['--code-timeout', '300'],
      exit: 2,
      stderr: new RegExp(
        `node "m": ${what} ran longer than the 300 ms limit ${node === 'udaf' ? 'per call' : node === 'process' ? 'per batch at record 1 of a batch of \\d+: \\{"customer":"c0","amount":0\\}' : 'per call at record \\{"customer":"c0","amount":0\\}'}, in line ${node === 'process' ? 3 : 1} of the code: .*while \\(.*--code-timeout`,
      ),
      withinMs: 40_000,
    },
    {
      name: `${node}: an allocation bomb hits the memory limit with a clear error`,
      node,
      code: body('const a = []; for (;;) a.push(new Array(1e5).fill(v0()))').replace('v0()', node === 'udaf' ? 'v' : 'row'),
      args: ['--code-memory', '64'],
      exit: 2,
      stderr: new RegExp(`node "m": ${what} used more than the 64 MB memory limit`),
      withinMs: 40_000,
    },
    {
      name: `${node}: require and process are not there, and no file is written`,
      node,
      code: body('(() => {}).constructor("return process")().mainModule.require("fs").writeFileSync("MARK", "x")'),
      exit: 0,
      deadLetters: /process is not defined/,
    },
    {
      name: `${node}: a throw is a dead letter with the code's message`,
      node,
      code: body('throw new Error("bad " + JSON.stringify(typeof row === "undefined" ? v : row.customer))'),
      exit: 0,
      deadLetters: /processing failed: bad /,
      deadLettersAt: true,
    },
  ];
}
