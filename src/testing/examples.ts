import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ExampleEntry {
  file: string;
  title: string;
  description: string;
}

export const EXAMPLES_DIR = 'public/examples';

/** The example pipelines shared by unit, oracle and e2e tests (Node side). */
export function loadExamples(): { entry: ExampleEntry; doc: Record<string, unknown> }[] {
  const index = JSON.parse(readFileSync(join(EXAMPLES_DIR, 'index.json'), 'utf8')) as ExampleEntry[];
  return index.map((entry) => ({ entry, doc: JSON.parse(readFileSync(join(EXAMPLES_DIR, entry.file), 'utf8')) }));
}

export function exampleFiles(): string[] {
  return readdirSync(EXAMPLES_DIR).filter((f) => f.endsWith('.json') && f !== 'index.json');
}
