import type { KindSpec } from '../../pipeline/kindSpec.ts';
import { paramKey } from './paramDescriptions.ts';
import { t } from './i18n.ts';

// Kind specs are pure and English; the UI translates their titles, summaries and param help by key,
// falling back to the spec's own English text for a kind nobody has translated yet.

export { paramKey };

const translated = (key: string, fallback: string, translate: typeof t): string => {
  const text = translate(key);
  return text === `[${key}]` ? fallback : text;
};

export const kindTitle = (spec: KindSpec, translate: typeof t = t): string => translated(`kind.${spec.kind}.title`, spec.title, translate);
export const kindSummary = (spec: KindSpec, translate: typeof t = t): string => translated(`kind.${spec.kind}.summary`, spec.summary, translate);
export const paramHelp = (kind: string, path: string, english: string, translate: typeof t = t): string => translated(paramKey(kind, path), english, translate);
