import type { Io } from './io.ts';
import { InvalidError, RefusedError, UsageError, processIo } from './io.ts';
import { MAIN_USAGE, usageFor } from './usage.ts';
import { parseRunArgs, parseValidateArgs, wantsHelp } from './args.ts';
import { validateCommand } from './validate.ts';
import { runCommand } from './run.ts';
import { PARALLEL_RUN_USAGE, splitRunFlags } from './runFlags.ts';
import { runParallelCommand } from './runParallel.ts';
import { exportCommand } from './export.ts';
import { importCommand } from './import.ts';
import { testCommand } from './testCommand.ts';
import { CODE_USAGE, UntrustedCodeError, splitCodeFlags } from './codeFlags.ts';

const COMMANDS = new Set(['validate', 'run', 'export', 'import', 'test']);

/**
 * The `weir` command. Returns the exit code: 0 ok, 1 invalid pipeline or arguments,
 * 2 failure while running. Never throws.
 */
export async function main(argv: readonly string[], io: Io = processIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined) {
      io.err(MAIN_USAGE);
      return 1;
    }
    if (command === '--help' || command === '-h' || command === 'help') {
      io.out(usageFor(rest[0]));
      return 0;
    }
    if (!COMMANDS.has(command)) throw new UsageError(`unknown command "${command}"`);
    if (command === 'export') return exportCommand(rest, io);
    if (command === 'import') return await importCommand(rest, io);
    if (wantsHelp(rest)) {
      io.out(command === 'run' ? `${usageFor(command)}\n\n${PARALLEL_RUN_USAGE}\n\n${CODE_USAGE}` : usageFor(command));
      return 0;
    }
    if (command === 'validate') return validateCommand(parseValidateArgs(rest), io);
    if (command === 'test') return testCommand(rest, io);
    // Without parallel-runtime flags `weir run` runs in process (runInProcess).
    const { code, rest: afterCode } = splitCodeFlags(rest);
    const { flags, rest: runArgs } = splitRunFlags(afterCode);
    const args = { ...parseRunArgs(runArgs), code };
    return flags ? await runParallelCommand(args, flags, io) : await runCommand(args, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`weir: ${e.message}\n\n${usageFor(e.command)}`);
      return 1;
    }
    if (e instanceof UntrustedCodeError) {
      io.err(e.message);
      return 2;
    }
    if (e instanceof InvalidError) {
      io.err(e.lines.join('\n'));
      return 1;
    }
    if (e instanceof RefusedError) {
      io.err(`weir: ${e.message}`);
      return 2;
    }
    io.err(`weir: failed: ${describe(e)}`);
    if (process.env.WEIR_DEBUG === '1' && e instanceof Error && e.stack) io.err(e.stack);
    return 2;
  }
}

function describe(e: unknown): string {
  if (e instanceof Error) return e.message || e.name;
  return String(e);
}
