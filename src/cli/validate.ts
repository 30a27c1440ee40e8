import type { Io } from './io.ts';
import { InvalidError } from './io.ts';
import { loadPipeline } from './load.ts';

/** `weir validate <file>...`: 0 when every document is valid, 1 otherwise. */
export function validateCommand(files: readonly string[], io: Io): number {
  let code = 0;
  for (const file of files) {
    try {
      const plan = loadPipeline(file, undefined, { notice: (line) => io.err(line) });
      io.out(`ok: ${plan.doc.name} (${plan.nodes.length} nodes, ${plan.edges.length} edges)`);
    } catch (e) {
      if (!(e instanceof InvalidError)) throw e;
      io.out(e.lines.join('\n'));
      code = 1;
    }
  }
  return code;
}
