import type { Row } from './types.ts';
import { transpileUdf, UdfError } from './udf.ts';
import { CODE_DRIVER_SOURCE } from './codeDriver.ts';
import type { CodeDriver, DriverOutcome } from './codeDriver.ts';

/**
 * Where an operator's user code runs. Operators hand over whole batches of rows and get one
 * outcome per row; they do not know whether the code runs in a sandboxed child process (the
 * CLI), a worker with a time budget, or in this realm (unit tests). The runtime installs the host
 * once per thread with `installCodeHost`; nothing else in the runtime knows about it.
 */
export interface OperatorCodeHost {
  /** Evaluates one node's code (a function expression, already transpiled) in a realm of its own. */
  load(site: CodeSite, js: string): LoadedCode;
}

export interface CodeSite {
  nodeId: string;
  /** What the code is, for messages: "map code", "filter code". */
  what: string;
}

export interface LoadedCode {
  /**
   * Calls the function once per row, in order, in one crossing. 'value' returns each result as
   * plain data; 'test' its truthiness. Throws CodeLimitError when the batch breaks a limit.
   */
  callEach(mode: 'value' | 'test', rows: readonly Row[]): CodeOutcome[];
}

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
export const inProcessCodeHost: OperatorCodeHost = {
  load(site, js) {
    // A fresh function scope per load; `globalThis` is shared, which is why this host isolates nothing.
    const driver = new Function('globalThis', `return ${CODE_DRIVER_SOURCE.replace(/\}\)\(globalThis\)$/, '})(Object.create(globalThis))')}`)(globalThis) as CodeDriver;
    driver.set('load', js);
    if (driver.run() !== 'ok') throw new UdfError(`${site.what} must be a function, such as (row) => ...`, 1, 1);
    return {
      callEach(mode, rows) {
        driver.set('call', mode, JSON.stringify(rows));
        return readOutcomes(driver.run(), site.what);
      },
    };
  },
};

let current: OperatorCodeHost = inProcessCodeHost;

/** Sets the host for operators created from now on in this thread. */
export function installCodeHost(host: OperatorCodeHost): void {
  current = host;
}

/** Loads a node's function code through the installed host; syntax errors carry line and column. */
export function loadCode(site: CodeSite, code: string): LoadedCode {
  return current.load(site, transpileUdf(code));
}
