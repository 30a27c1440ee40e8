import type { SourceDefinition } from '../source.ts';
import type { InlineSourceParams } from '../../pipeline/kinds/inlineSource.ts';

export const inlineSource: SourceDefinition<InlineSourceParams> = {
  kind: 'inlineSource',
  open(params) {
    const rows = params.rows ?? [];
    let pos = 0;
    return {
      // Rows are cloned so that type normalization downstream never edits the document.
      read(max) {
        const out = [];
        while (pos < rows.length && out.length < max) {
          const value = structuredClone(rows[pos++]);
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
