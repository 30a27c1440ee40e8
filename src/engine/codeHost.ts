import type { Element, Row } from '../core/types.ts';
import { transpileUdf, UdfError } from '../expr/udf.ts';
import { CODE_DRIVER_SOURCE } from './codeDriver.ts';
import type { CodeDriver, CodeForm, DriverOutcome } from './codeDriver.ts';
import { lineOfCode, markLines } from './codeLines.ts';

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
  /**
   * Several such calls in one crossing, answered in order: the calls of one batch of records. The
   * time limit holds for the whole batch, as for callEach.
   */
  invokeEach(requests: readonly object[]): InvokeAnswer[];
}

/** What one invoke answers: a value, the code's own error, or a wrong shape; process calls add their effects. */
export type InvokeAnswer = { v?: unknown; e?: string; l?: number; s?: string; out?: ({ v: unknown } | { s: string })[]; ops?: unknown[][]; tm?: [string, number][] };

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

/** A pipeline's `settings.code`, with `over` (the CLI's flags) taking precedence, else the defaults. */
export function codeLimitsOf(settings: { code?: Partial<CodeLimits> } | undefined, over?: Partial<CodeLimits>): CodeLimits {
  return {
    timeoutMs: over?.timeoutMs ?? settings?.code?.timeoutMs ?? DEFAULT_CODE_LIMITS.timeoutMs,
    memoryMb: over?.memoryMb ?? settings?.code?.memoryMb ?? DEFAULT_CODE_LIMITS.memoryMb,
  };
}

/**
 * User code broke a limit (time, memory) or killed its host. Not a bad record but a broken job:
 * it is never dead-lettered and never retried, since a restart would only run into it again.
 */
export class CodeLimitError extends Error {
  readonly fatal = true;
  /** Which record of the rows or requests handed over was running, when the host knows it. */
  record?: number;
  /** That record's element, once the operator that handed the batch over has found it. */
  element?: Element;
  /** Set once the message names the record's source line, so it is named once. */
  located = false;

  /** `advice` (what to do) stays last when the message is told where the record came from. */
  constructor(
    readonly detail: string,
    readonly advice = '',
  ) {
    super(advice ? `${detail}; ${advice}` : detail);
  }

  /** The same error, its message saying where the record came from, before the advice. */
  withOrigin(sentence: string): CodeLimitError {
    const e = new CodeLimitError(`${this.detail}; ${sentence}`, this.advice);
    e.located = true;
    return e;
  }
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
export function readOutcomes(json: string, site: CodeSite): CodeOutcome[] {
  return (JSON.parse(json) as DriverOutcome[]).map((o) => {
    if ('v' in o) return { ok: true, value: o.v };
    if ('u' in o) return { ok: true, value: undefined };
    if ('s' in o) return { ok: false, reason: `${site.what} returned the wrong shape: ${o.s}` };
    return { ok: false, reason: `${site.what} threw: ${threwAt(o.e, o.l, site)}` };
  });
}

/** A throw's reason with the line of the user's code it came from, when the driver found one. */
function threwAt(reason: string, line: number | undefined, site: CodeSite): string {
  const where = line ? lineOfCode(site.source, line) : '';
  return where ? `${reason} (in ${where})` : reason;
}

/** One invoke's answer, read with the host's own JSON, a throw named by its line. */
export function readAnswer(json: string, site: CodeSite): InvokeAnswer {
  return located(JSON.parse(json) as InvokeAnswer, site);
}

function located(answer: InvokeAnswer, site: CodeSite): InvokeAnswer {
  if (answer.e !== undefined && answer.l) answer.e = threwAt(answer.e, answer.l, site);
  return answer;
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
 * `memoryMb`, when given, bounds what one crossing may hand back (see answerBound).
 */
export function loadInProcess(site: CodeSite, js: string, form: CodeForm = 'function', tracker?: Int32Array, memoryMb?: number): LoadedCode {
  // A fresh function scope per load; `globalThis` is shared, which is why this host isolates nothing.
  const driver = new Function('globalThis', `return ${CODE_DRIVER_SOURCE.replace(/\}\)\(globalThis\)$/, '})(Object.create(globalThis))')}`)(globalThis) as CodeDriver;
  driver.set('load', js, form, tracker);
  const shape = checkLoaded(site, form, driver.run());
  const answer = (records: number): string => {
    const json = driver.run();
    if (memoryMb !== undefined) answerBound(site, json.length, records, memoryMb);
    return json;
  };
  const data = (records: number): unknown => {
    const got: unknown = driver.run();
    if (memoryMb !== undefined) answerBound(site, driver.size(), records, memoryMb);
    return got;
  };
  return {
    shape,
    callEach(mode, rows) {
      driver.set('call', mode, JSON.stringify(rows));
      return readOutcomes(answer(rows.length), site);
    },
    // The driver shares this realm: the request goes over as objects (it copies them) and the
    // answers come back as objects only the host holds, with no JSON text between.
    invoke(request) {
      driver.set('invokeData', request);
      return located(data(1) as InvokeAnswer, site);
    },
    invokeEach(requests) {
      driver.set('invokeData', { t: 'each', rs: requests });
      return (data(requests.length) as { each: InvokeAnswer[] }).each.map((a) => located(a, site));
    },
  };
}

/**
 * Where no heap limit can be set (a browser's Web Worker), the memory limit bounds what code hands
 * back in one crossing: its results, and a process function's state writes and emitted rows, as
 * JSON text (at least one byte per character; for calls answered as objects, about as much as their
 * JSON would be, as the driver counts it). More than the limit stops the run: the results would
 * be held again as records and state, and the next batch would do the same.
 */
export function answerBound(site: CodeSite, chars: number, records: number, memoryMb: number): void {
  const mb = chars / 2 ** 20;
  if (mb <= memoryMb) return;
  throw new CodeLimitError(
    `node "${site.nodeId}": ${site.what} returned ${mb.toFixed(1)} MB for ${records === 1 ? 'one record' : `a batch of ${records} records`}, more than the ${memoryMb} MB memory limit; the run was stopped. Fix the code (does it keep or return more than it needs?) or raise settings.code.memoryMb`,
  );
}

/** The driver's request for several calls in one crossing (see invoke in codeObjects.ts). */
export const eachRequest = (requests: readonly object[]): string => JSON.stringify({ t: 'each', rs: requests });
export const readEach = (json: string, site: CodeSite): InvokeAnswer[] => (JSON.parse(json) as { each: InvokeAnswer[] }).each.map((a) => located(a, site));

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
