// Writes public/schema/pipeline.schema.json and docs/pipeline-format.md from the kind specs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { buildPipelineSchema } from '../src/pipeline/jsonSchema.ts';
import { renderFormatDoc } from '../src/pipeline/formatDoc.ts';

mkdirSync('public/schema', { recursive: true });
writeFileSync('public/schema/pipeline.schema.json', JSON.stringify(buildPipelineSchema(), null, 2) + '\n');
writeFileSync('docs/pipeline-format.md', renderFormatDoc());
console.log('wrote public/schema/pipeline.schema.json and docs/pipeline-format.md');
