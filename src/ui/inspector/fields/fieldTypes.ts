import type { JsonSchema } from '../../../pipeline/kindSpec.ts';
import { paramHelp } from '../../i18n/kindText.ts';

/** Messages keyed by dotted field path, such as `params.aggregates[0].fn`. */
export type ProblemMap = Map<string, string[]>;

/** What a generated field needs: its schema, its value, where it sits, and how to report a change. */
export interface FieldProps {
  /** Visible label, also the accessible name. */
  name: string;
  schema: JsonSchema;
  value: unknown;
  onChange(value: unknown): void;
  /** Dotted path, used for problems and element ids. */
  path: string;
  problems: ProblemMap;
  required?: boolean;
  /** Names of fields on the input stream, offered as suggestions. */
  fieldNames: string[];
  /** Node the form edits; code editors key their models on it. */
  nodeId: string;
  kind: string;
  /** The object this field sits in (its sibling fields), for fields that depend on another. */
  siblings?: Record<string, unknown>;
  /** Where the field's help text is found when that is not `path`: a map entry's fields share one (`columns.*.min`). */
  helpPath?: string;
}

export const domId = (path: string): string => `f-${path.replace(/[^A-Za-z0-9_-]/g, '_')}`;

export function messagesAt(problems: ProblemMap, path: string): string[] {
  return problems.get(path) ?? [];
}

export const schemaOf = (s: unknown): JsonSchema => (s && typeof s === 'object' ? (s as JsonSchema) : {});
export const propsOf = (s: JsonSchema): Record<string, JsonSchema> => (s.properties ?? {}) as Record<string, JsonSchema>;
export const requiredOf = (s: JsonSchema): string[] => (Array.isArray(s.required) ? (s.required as string[]) : []);
export const describe = (s: JsonSchema): string | undefined => (typeof s.description === 'string' ? s.description : undefined);

/** A field's help in the current language: the kind's translation for this param, else the schema's English. */
export function helpOf(p: Pick<FieldProps, 'schema' | 'kind' | 'path' | 'helpPath'>): string | undefined {
  const english = describe(p.schema);
  return english && paramHelp(p.kind, p.helpPath ?? p.path, english);
}

/** A value to start from when a field is switched on or a row is added. */
export function emptyValue(s: JsonSchema): unknown {
  if (s.default !== undefined) return structuredClone(s.default);
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  switch (s.type) {
    case 'string':
      return '';
    case 'number':
    case 'integer':
      return typeof s.minimum === 'number' ? s.minimum : 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const k of requiredOf(s)) out[k] = emptyValue(propsOf(s)[k] ?? {});
      return out;
    }
    default:
      return null;
  }
}

/** Returns the object with `key` set, or removed when the value is undefined. */
export function withKey(obj: unknown, key: string, value: unknown): Record<string, unknown> {
  const base = obj && typeof obj === 'object' && !Array.isArray(obj) ? { ...(obj as Record<string, unknown>) } : {};
  if (value === undefined) delete base[key];
  else base[key] = value;
  return base;
}

/**
 * `x-weir-visible-when: { type: ['hop'] }` shows a field only while its sibling `type` holds one of those values.
 * A `null` among the values stands for the sibling's being unset (its default).
 * A hidden field that has a problem stays visible, so no message points at something the user cannot see.
 */
export function isVisible(s: JsonSchema, siblings: Record<string, unknown>, hasProblem: boolean): boolean {
  const when = s['x-weir-visible-when'];
  if (!when || typeof when !== 'object' || hasProblem) return true;
  return Object.entries(when as Record<string, unknown[]>).every(([k, allowed]) => Array.isArray(allowed) && allowed.includes(siblings[k] ?? null));
}
