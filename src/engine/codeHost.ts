import type { Row } from '../core/types.ts';
import { transpileUdf, UdfError } from '../expr/udf.ts';
import { CODE_DRIVER_SOURCE } from './codeDriver.ts';
import type { CodeDriver, CodeForm, DriverOutcome } from './codeDriver.ts';
import { markLines } from './codeLines.ts';

/**
 * Where an operator's user code runs. Operators hand over whole batches of rows and get one
 * outcome per row; they do not know whether the code runs in a sandboxed child process (the
 * CLI), a worker with a time budget, or in this realm (unit tests). The runtime installs the host
 * once per thread with `installCodeHost`; nothing else in the runtime knows about it.
 */
export interface OperatorCodeHost {
  /** Evaluates one node's code (an expression, already transpiled) in a realm of its own. */
  load(site: CodeSite, js: string, form?: CodeForm): LoadedCode;
}

export interface CodeSite {
  nodeId: string;
  /** What the code is, for messages: "map code", "filter code". */
  what: string;
  /** The code as the user wrote it, so a limit can name the line it stopped in. */
  source?: string;
}

export interface LoadedCode {
  /** For object code: its methods and declarations, as the driver read them (see objectShape). */
  readonly shape?: unknown;
  /**
   * Calls the function once per row, in order, in one crossing. 'value' returns each result as
   * plain data; 'test' its truthiness. Throws CodeLimitError when the batch breaks a limit.
   */
  callEach(mode: 'value' | 'test', rows: readonly Row[]): CodeOutcome[];
  /**
   * One call with a context (a process function's state snapshot, a broadcast function's rule
   * changes, an aggregate method's arguments), as plain data, in one crossing. Answers the
   * driver's JSON, parsed by the host: see codeObjects.ts. Throws CodeLimitError on a limit.
   */
  invoke(request: object): InvokeAnswer;
}

/** What one invoke answers: a value, the code's own error, or a wrong shape; process calls add their effects. */
export type InvokeAnswer = { v?: unknown; e?: string; s?: string; out?: ({ v: unknown } | { s: string })[]; ops?: unknown[][]; tm?: [string, number][] };

/** A record's outcome: the result, or why it is a dead letter. */
export type CodeOutcome = { ok: true; value: unknown } | { ok: false; reason: string };

/** The limits every host enforces on user code; the CLI takes them from flags or pipeline settings. */
export interface CodeLimits {
  /** Wall-clock time one batch of records may spend in user code. */
  timeoutMs: number;
  /** Heap of the realm that runs the code (where the host can bound it). */
  memoryMb: number;
}

export const DEFAULT_CODE_LIMITS: CodeLimits = { timeoutMs: 2000, memoryMb: 256 };

/**
 * User code broke a limit (time, memory) or killed its host. Not a bad record but a broken job:
 * it is never dead-lettered and never retried, since a restart would only run into it again.
 */
export class CodeLimitError extends Error {
  readonly fatal = true;
}

export const isCodeLimitError = (e: unknown): e is CodeLimitError => e instanceof Error && (e as { fatal?: unknown }).fatal === true;

/** A short, bounded picture of a record for an error message. */
export function recordExcerpt(row: unknown): string {
  let s: string;
  try {
    s = JSON.stringify(row) ?? String(row);
  } catch {
    s = String(row);
  }
  return s.length > 200 ? `${s.slice(0, 200)}…` : s;
}

/** Turns the driver's JSON answer into outcomes, with the host's own JSON. */
export function readOutcomes(json: string, what: string): CodeOutcome[] {
  return (JSON.parse(json) as DriverOutcome[]).map((o) => {
    if ('v' in o) return { ok: true, value: o.v };
    if ('s' in o) return { ok: false, reason: `${what} returned the wrong shape: ${o.s}` };
    return { ok: false, reason: `${what} threw: ${o.e}` };
  });
}

/**
 * Runs code in this realm through the same driver as every other host: the same shape checks and
 * messages, but no isolation and no watchdog. For tests and for threads that are themselves the
 * sandbox; a runtime that runs untrusted code installs a real host instead.
 */
export const inProcessCodeHost: OperatorCodeHost = { load: (site, js, form) => loadInProcess(site, js, form) };

/**
 * Loads code into this realm. `tracker`, when given, is the code's line tracker: a shared one
 * lets a watchdog on another thread read the line after it stopped this one (the designer).
 */
export function loadInProcess(site: CodeSite, js: string, form: CodeForm = 'function', tracker?: Int32Array): LoadedCode {
  // A fresh function scope per load; `globalThis` is shared, which is why this host isolates nothing.
  const driver = new Function('globalThis', `return ${CODE_DRIVER_SOURCE.replace(/\}\)\(globalThis\)$/, '})(Object.create(globalThis))')}`)(globalThis) as CodeDriver;
  driver.set('load', js, form, tracker);
  const shape = checkLoaded(site, form, driver.run());
  return {
    shape,
    callEach(mode, rows) {
      driver.set('call', mode, JSON.stringify(rows));
      return readOutcomes(driver.run(), site.what);
    },
    invoke(request) {
      driver.set('invoke', JSON.stringify(request));
      return JSON.parse(driver.run()) as InvokeAnswer;
    },
  };
}

/** Checks what the driver's load answered; returns the object's shape for object code. */
export function checkLoaded(site: CodeSite, form: CodeForm, answer: string): unknown {
  if (form === 'object') {
    if (answer === 'notObject') throw new UdfError(`${site.what} must be an object literal, such as ({ ... })`, 1, 1);
    return JSON.parse(answer) as unknown;
  }
  if (answer !== 'ok') throw new UdfError(`${site.what} must be a function, such as (row) => ...`, 1, 1);
  return undefined;
}

let current: OperatorCodeHost = inProcessCodeHost;

/** Sets the host for operators created from now on in this thread. */
export function installCodeHost(host: OperatorCodeHost): void {
  current = host;
}

/** Loads a node's code through the installed host; syntax errors carry line and column. */
export function loadCode(site: CodeSite, code: string, form: CodeForm = 'function'): LoadedCode {
  return current.load({ ...site, nodeId: site.nodeId || nodeBeingCreated, source: code }, markLines(transpileUdf(code)), form);
}

let nodeBeingCreated = '';

/**
 * Runs an operator's factory knowing its node: code loaded deep inside it (an aggregate call's
 * functions, which know only their column) is still named by its node in every message.
 */
export function creatingNode<T>(nodeId: string, create: () => T): T {
  const outer = nodeBeingCreated;
  nodeBeingCreated = nodeId;
  try {
    return create();
  } finally {
    nodeBeingCreated = outer;
  }
}
