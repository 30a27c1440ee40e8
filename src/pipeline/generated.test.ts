import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import Ajv from 'ajv';
import { buildPipelineSchema } from './jsonSchema.ts';
import { renderFormatDoc } from './formatDoc.ts';
import { kindSpecs } from './kinds/index.ts';
import { compile } from './compile.ts';

describe('generated artifacts', () => {
  it('public/schema/pipeline.schema.json is up to date (run `npm run gen`)', () => {
    const committed = JSON.parse(readFileSync('public/schema/pipeline.schema.json', 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(buildPipelineSchema())));
  });

  it('docs/pipeline-format.md is up to date (run `npm run gen`)', () => {
    expect(readFileSync('docs/pipeline-format.md', 'utf8')).toBe(renderFormatDoc());
  });

  it('the JSON Schema compiles and accepts every kind example', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    const validate = ajv.compile(buildPipelineSchema());
    for (const s of kindSpecs) {
      const doc = { format: 'weir/pipeline', version: 1, name: s.kind, nodes: [{ id: 'n', kind: s.kind, params: s.example }], edges: [] };
      expect(validate(doc), `${s.kind}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('every kind documents its semantics, ports and an example that passes its own params check', () => {
    for (const s of kindSpecs) {
      expect(s.semantics.length, s.kind).toBeGreaterThan(60);
      expect(s.summary.length, s.kind).toBeGreaterThan(10);
      const doc = { format: 'weir/pipeline', version: 1, name: s.kind, nodes: [{ id: 'n', kind: s.kind, params: s.example }], edges: [] };
      const paramProblems = compile(doc).problems.filter((p) => p.field.startsWith('params'));
      expect(paramProblems, s.kind).toEqual([]);
    }
  });
});
