import { UsageError } from './io.ts';
import type { CodeFlags } from './codeFlags.ts';

export interface RunArgs {
  pipeline: string;
  out: string;
  /** sourceId → file, in the order given. */
  inputs: Map<string, string>;
  seed?: number;
  /** Trust and limits for the pipeline's user code (see codeFlags.ts). */
  code?: CodeFlags;
}

export const wantsHelp = (args: readonly string[]): boolean => args.includes('--help') || args.includes('-h');

/** Splits `--flag value` and `--flag=value`; everything after `--` is positional. */
function tokens(args: readonly string[], command: string, valued: ReadonlySet<string>): { flags: [string, string][]; positional: string[] } {
  const flags: [string, string][] = [];
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      positional.push(...args.slice(i + 1));
      break;
    }
    if (!a.startsWith('-') || a === '-') {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(0, eq) : a;
    if (!valued.has(name)) throw new UsageError(`unknown option ${name}`, command);
    if (eq > 0) flags.push([name, a.slice(eq + 1)]);
    else if (i + 1 < args.length && !args[i + 1].startsWith('--')) flags.push([name, args[++i]]);
    else throw new UsageError(`${name} needs a value`, command);
  }
  return { flags, positional };
}

export function parseValidateArgs(args: readonly string[]): string[] {
  const { positional } = tokens(args, 'validate', new Set());
  if (positional.length === 0) throw new UsageError('give a pipeline file to validate', 'validate');
  return positional;
}

export function parseRunArgs(args: readonly string[]): RunArgs {
  const { flags, positional } = tokens(args, 'run', new Set(['--input', '--out', '--seed']));
  if (positional.length === 0) throw new UsageError('give the pipeline file to run', 'run');
  if (positional.length > 1) throw new UsageError(`one pipeline file at a time; also got ${positional.slice(1).join(' ')}`, 'run');
  const inputs = new Map<string, string>();
  let out: string | undefined;
  let seed: number | undefined;
  for (const [name, value] of flags) {
    if (name === '--input') {
      const eq = value.indexOf('=');
      if (eq <= 0 || eq === value.length - 1) throw new UsageError(`--input takes <sourceId>=<file.jsonl>, got "${value}"`, 'run');
      const id = value.slice(0, eq);
      if (inputs.has(id)) throw new UsageError(`--input ${id} is given twice`, 'run');
      inputs.set(id, value.slice(eq + 1));
    } else if (name === '--out') {
      if (out !== undefined) throw new UsageError('--out is given twice', 'run');
      if (value === '') throw new UsageError('--out needs a directory', 'run');
      out = value;
    } else {
      if (seed !== undefined) throw new UsageError('--seed is given twice', 'run');
      if (!/^\d+$/.test(value) || Number(value) > 2 ** 32 - 1) throw new UsageError(`--seed must be a whole number from 0 to 4294967295, got "${value}"`, 'run');
      seed = Number(value);
    }
  }
  if (out === undefined) throw new UsageError('--out <dir> is required: where should the results go?', 'run');
  return { pipeline: positional[0], out, inputs, seed };
}
