import { UsageError } from './io.ts';

/** The `weir run` flags that select the parallel runtime (worker_threads, checkpoints, recovery). */
export interface ParallelRunFlags {
  parallelism?: number;
  state?: 'memory' | 'indexeddb';
  checkpointIntervalMs?: number;
  checkpointEveryRecords?: number;
  stateDir?: string;
  resume: boolean;
  chaos?: number;
  /** --resume may leave out the state of operators that changed incompatibly or are gone. */
  allowNonRestoredState?: boolean;
}

const VALUED = new Set(['--parallelism', '--state', '--checkpoint-interval', '--checkpoint-every-records', '--state-dir', '--chaos']);

export const PARALLEL_RUN_USAGE = `Parallel runtime (any of these runs the job on worker threads with checkpoints):
  --parallelism <N>             subtasks per operator, 1 to 8 (a node's own "parallelism" wins;
                                sources keep theirs, default 1, so every key's records keep one order)
  --state memory|indexeddb      keyed state backend (indexeddb runs on fake-indexeddb in Node)
  --checkpoint-interval <MS>    checkpoint every MS milliseconds (default: settings.checkpoint.intervalMs, else 1000)
  --checkpoint-every-records <N>  besides: sources read at most N records between two checkpoints and
                                wait for the next one, so checkpoints follow input progress, not speed
  --state-dir <dir>             keep checkpoints and committed output in files under <dir>
  --resume                      continue from the last completed checkpoint in --state-dir
                                (after a killed process), with the same final result
  --allow-non-restored-state    with --resume: operators whose state no longer fits the pipeline
                                (changed or removed) start empty instead of refusing the resume
  --chaos <K>                   kill K random subtasks at random moments (seeded by --seed):
                                while records flow, during a snapshot write, or during the
                                recovery from the kill before; the views are identical to a run without --chaos, and so is the
                                changelog once its rows are sorted stably by primary key`;

/**
 * Takes the parallel-runtime flags out of `weir run`'s arguments. Returns null flags when none
 * was given: the run then stays in process, one subtask per node.
 */
export function splitRunFlags(args: readonly string[]): { flags: ParallelRunFlags | null; rest: string[] } {
  const rest: string[] = [];
  const flags: ParallelRunFlags = { resume: false };
  let any = false;
  const seen = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      rest.push(...args.slice(i));
      break;
    }
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(0, eq) : a;
    if (name === '--resume') {
      if (eq > 0) throw new UsageError('--resume takes no value', 'run');
      flags.resume = any = true;
      continue;
    }
    if (name === '--allow-non-restored-state') {
      if (eq > 0) throw new UsageError('--allow-non-restored-state takes no value', 'run');
      flags.allowNonRestoredState = true;
      continue;
    }
    if (!VALUED.has(name)) {
      rest.push(a);
      continue;
    }
    let value: string;
    if (eq > 0) value = a.slice(eq + 1);
    else if (i + 1 < args.length && !args[i + 1].startsWith('--')) value = args[++i];
    else throw new UsageError(`${name} needs a value`, 'run');
    if (seen.has(name)) throw new UsageError(`${name} is given twice`, 'run');
    seen.add(name);
    any = true;
    apply(flags, name, value);
  }
  if (flags.allowNonRestoredState && !flags.resume) throw new UsageError('--allow-non-restored-state goes with --resume: it says which checkpointed state may be left out', 'run');
  if (flags.resume && !flags.stateDir) throw new UsageError('--resume needs --state-dir <dir>: where are the checkpoints to resume from?', 'run');
  return { flags: any ? flags : null, rest };
}

function apply(flags: ParallelRunFlags, name: string, value: string): void {
  const whole = (min: number, max: number, what: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) throw new UsageError(`${name} must be ${what}, got "${value}"`, 'run');
    return Number(value);
  };
  switch (name) {
    case '--parallelism':
      flags.parallelism = whole(1, 8, 'a whole number from 1 to 8');
      return;
    case '--state':
      if (value !== 'memory' && value !== 'indexeddb') throw new UsageError(`--state must be memory or indexeddb, got "${value}"`, 'run');
      flags.state = value;
      return;
    case '--checkpoint-interval':
      flags.checkpointIntervalMs = whole(1, 86_400_000, 'a whole number of milliseconds (1 or more)');
      return;
    case '--checkpoint-every-records':
      flags.checkpointEveryRecords = whole(1, 1_000_000_000, 'a whole number of records (1 or more)');
      return;
    case '--state-dir':
      if (value === '') throw new UsageError('--state-dir needs a directory', 'run');
      flags.stateDir = value;
      return;
    case '--chaos':
      flags.chaos = whole(0, 1000, 'a whole number of kills from 0 to 1000');
      return;
  }
}
