import type { PipelineDocument } from '../pipeline/document.ts';
import { udfSites } from '../pipeline/udfSites.ts';
import { codeLimitsOf } from '../engine/codeHost.ts';
import type { CodeLimits } from '../engine/codeHost.ts';
import { installNodeSandbox } from '../runtime/node/sandbox/sandboxHost.ts';
import type { Io } from './io.ts';
import { UsageError } from './io.ts';

/** `weir run`'s flags about user code: whether to run it at all, and its limits. */
export interface CodeFlags {
  trust: boolean;
  timeoutMs?: number;
  memoryMb?: number;
}

export const CODE_USAGE = `User code (map, filter, flatMap, process, broadcast and udaf code):
  --trust-code                  run the pipeline's user code without asking; without it, a run
                                whose pipeline carries code asks at a terminal and otherwise stops
                                (exit 2) naming the nodes with code
  --code-timeout <ms>           time one batch of records may spend in user code before the run
                                stops with an error (default: settings.code.timeoutMs, else 2000)
  --code-memory <MB>            heap of the process that runs user code (default:
                                settings.code.memoryMb, else 256)`;

/** User code is in the pipeline and nobody said it may run: exit 2, the message says what to do. */
export class UntrustedCodeError extends Error {}

/** Takes the user-code flags out of `weir run`'s arguments, leaving the rest in order. */
export function splitCodeFlags(args: readonly string[]): { code: CodeFlags; rest: string[] } {
  const code: CodeFlags = { trust: false };
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      rest.push(...args.slice(i));
      break;
    }
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(0, eq) : a;
    if (name === '--trust-code') {
      if (eq > 0) throw new UsageError('--trust-code takes no value', 'run');
      code.trust = true;
      continue;
    }
    if (name !== '--code-timeout' && name !== '--code-memory') {
      rest.push(a);
      continue;
    }
    let value: string;
    if (eq > 0) value = a.slice(eq + 1);
    else if (i + 1 < args.length && !args[i + 1].startsWith('--')) value = args[++i];
    else throw new UsageError(`${name} needs a value`, 'run');
    const [min, max, unit] = name === '--code-timeout' ? [1, 600_000, 'milliseconds'] : [16, 16_384, 'MB'];
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) throw new UsageError(`${name} must be a whole number of ${unit} from ${min} to ${max}, got "${value}"`, 'run');
    if (name === '--code-timeout') code.timeoutMs = Number(value);
    else code.memoryMb = Number(value);
  }
  return { code, rest };
}

/** Flag, else pipeline setting, else default. */
export function codeLimits(doc: PipelineDocument, flags: CodeFlags | undefined): CodeLimits {
  return codeLimitsOf(doc.settings, flags);
}

/**
 * Before the first record moves: a pipeline with user code runs it only with --trust-code or
 * after a "yes" at a terminal, and then only in the sandbox. Returns the limits in force.
 */
export async function prepareUserCode(doc: PipelineDocument, flags: CodeFlags | undefined, io: Io, stdinIsInput: boolean): Promise<CodeLimits | null> {
  const sites = udfSites(doc);
  if (sites.length === 0) return null;
  const nodes = [...new Set(sites.map((s) => s.nodeId))];
  const list = sites.map((s) => `  node "${s.nodeId}" (${s.kind}, ${s.param}): ${firstLine(s.code)}`).join('\n');
  if (!flags?.trust) {
    const ask = stdinIsInput ? undefined : io.ask;
    const answer = ask && (await ask(`this pipeline carries user code that will run on this machine (in a sandbox):\n${list}\nrun it? [yes/no] `));
    if (answer === null || answer === undefined || !/^y(es)?$/i.test(answer.trim())) {
      throw new UntrustedCodeError(
        `weir: not run: the pipeline carries user code in ${nodes.length === 1 ? 'node' : 'nodes'} ${nodes.map((n) => `"${n}"`).join(', ')}:\n${list}\n` +
          `Read the code; to run it, give --trust-code${ask ? '' : ' (or run at a terminal and answer "yes")'}.`,
      );
    }
  }
  const limits = codeLimits(doc, flags);
  installNodeSandbox(limits);
  return limits;
}

const firstLine = (code: string): string => {
  const line = code.trim().split('\n')[0];
  return line.length > 60 ? `${line.slice(0, 60)}…` : line;
};
