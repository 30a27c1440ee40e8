// The ui suite itself needs a browser (npm run bench -- --only=ui); this checks its input in Node.
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/pipeline/compile.ts';
import { benchDoc } from './ui.ts';

describe('ui suite document', () => {
  it('is the top-cities example, valid, with a generator that outlasts any measurement and the window node to select', () => {
    const doc = benchDoc();
    const { plan, problems } = compile(doc);
    expect(problems).toEqual([]);
    expect(plan).toBeTruthy();
    expect(doc.nodes.find((n) => n.kind === 'generatorSource')?.params.count).toBe(1_000_000_000);
    expect(doc.nodes.find((n) => n.id === 'per_minute')?.kind).toBe('window');
  });
});
