import { describe, expect, it } from 'vitest';
import { exampleFiles, loadExamples } from './examples.ts';
import { compile } from '../pipeline/compile.ts';
import { runPipeline } from './runPipeline.ts';

describe('example pipelines', () => {
  it('the gallery index lists every example file', () => {
    expect(loadExamples().map((e) => e.entry.file).sort()).toEqual(exampleFiles().sort());
  });

  for (const { entry, doc } of loadExamples()) {
    it(`${entry.file} is valid, runs to the end and fills every view`, () => {
      expect(compile(doc).problems).toEqual([]);
      const run = runPipeline(doc);
      expect(run.deadLetters).toEqual([]);
      for (const [sink, rows] of Object.entries(run.views)) {
        const isSideOutput = /late/.test(sink);
        if (!isSideOutput) expect(rows.length, `${entry.file}: view ${sink}`).toBeGreaterThan(0);
      }
    });
  }
});
