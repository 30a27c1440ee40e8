import { createInterface } from 'node:readline/promises';

async function askAtTerminal(question: string): Promise<string | null> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await rl.question(question);
  } catch {
    return null;
  } finally {
    rl.close();
  }
}

/** Where the CLI prints; tests pass their own to capture output. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** For `--input id=-`; a caller without one cannot run live. */
  stdin?: NodeJS.ReadableStream;
  /** For `--out -`, written with backpressure. */
  stdout?: NodeJS.WritableStream;
  /** Asks the person at the terminal; absent when nobody is there to answer (no TTY). */
  ask?(question: string): Promise<string | null>;
}

export const processIo: Io = {
  // Getters: touching process.stdin creates its handle, which only a live run needs.
  get stdin() {
    return process.stdin;
  },
  get stdout() {
    return process.stdout;
  },
  get ask() {
    return process.stdin.isTTY && process.stderr.isTTY ? askAtTerminal : undefined;
  },
  out: (text) => void process.stdout.write(text.endsWith('\n') ? text : text + '\n'),
  err: (text) => void process.stderr.write(text.endsWith('\n') ? text : text + '\n'),
};

/** A mistake in how the command was called: exit 1 with a message and a pointer to the usage. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message);
  }
}

/** The pipeline or its inputs are not acceptable: exit 1, the lines are already the explanation. */
export class InvalidError extends Error {
  constructor(readonly lines: string[]) {
    super(lines.join('\n'));
  }
}

/**
 * The run is refused because of its environment (a state directory that is locked, not
 * writable, or holds output that cannot be trusted): exit 2 with the message, no usage.
 */
export class RefusedError extends Error {}
