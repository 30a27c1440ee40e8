import type { SourceDefinition } from '../../core/source.ts';
import type { InlineSourceParams } from '../../pipeline/kinds/inlineSource.ts';

export const inlineSource: SourceDefinition<InlineSourceParams> = {
  kind: 'inlineSource',
  open(params, env) {
    const rows = params.rows ?? [];
    // Rows are cloned so that type normalization and user code downstream never edit the document.
    const copy = env.ownsParams ? <T>(r: T) => r : structuredClone;
    let pos = 0;
    return {
      read(max) {
        const out = [];
        while (pos < rows.length && out.length < max) {
          const value = copy(rows[pos++]);
          out.push({ value, line: pos });
        }
        return out;
      },
      done: () => pos >= rows.length,
      offset: () => pos,
      seek(o) {
        pos = Math.max(0, Math.min(o, rows.length));
      },
    };
  },
};
