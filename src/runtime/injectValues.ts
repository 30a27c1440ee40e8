import type { CommonSourceParams } from '../core/source.ts';
import { MAX_TIMESTAMP } from '../engine/sourceTask.ts';
import { sourceDefinition } from '../engine/registry.ts';
import type { JobPlan } from '../pipeline/plan.ts';

/** Why one field of an injected record cannot be used; the UI words it (observatory.inject.error.*). */
export interface InjectFieldError {
  field: string;
  code: 'required' | 'number' | 'integer' | 'boolean' | 'timestamp' | 'unknownField';
  got: string;
}

export type InjectParse = { ok: true; row: Record<string, unknown> } | { ok: false; errors: InjectFieldError[] };

/**
 * A record injected into `source` of a running job (phase: the run's), parsed by its declared
 * types; throws when the node is no source, the job has ended or the source has read all its
 * input (`ended`), each saying what to do instead.
 */
export function parseInjection(plan: JobPlan, source: string, values: Record<string, string>, phase: string, ended: () => boolean): InjectParse {
  const node = plan.nodes.find((n) => n.id === source);
  if (!node?.isSource) throw new Error(`inject: "${source}" is not a source of this job; choose a source node`);
  if (phase === 'finished' || phase === 'failed') throw new Error(`inject: the job has ${phase}; run it again to inject records`);
  if (ended()) throw new Error(`inject: source "${source}" has read all its input and ended; restore an earlier checkpoint to inject into it`);
  const def = sourceDefinition(node.kind);
  return parseInjectValues(def.taskParams?.(node.params) ?? (node.params as CommonSourceParams), values);
}

/**
 * Turns the text a user typed per column into a record of the source's declared types, or says
 * which fields are wrong. An empty field is null, except the event-time field, which the source
 * needs to place the record in time. Timestamps are epoch ms or ISO-8601 text.
 */
export function parseInjectValues(params: CommonSourceParams, values: Record<string, string>): InjectParse {
  const schema = params.schema ?? {};
  const timeField = params.eventTime?.field ?? null;
  const row: Record<string, unknown> = {};
  const errors: InjectFieldError[] = [];
  for (const field of Object.keys(values)) if (!(field in schema)) errors.push({ field, code: 'unknownField', got: values[field] });
  for (const [field, type] of Object.entries(schema)) {
    const text = (values[field] ?? '').trim();
    if (text === '') {
      if (field === timeField) errors.push({ field, code: 'required', got: '' });
      else row[field] = null;
      continue;
    }
    const bad = (code: InjectFieldError['code']) => errors.push({ field, code, got: text });
    switch (type) {
      case 'number': {
        const n = Number(text);
        if (!Number.isFinite(n)) bad('number');
        else row[field] = n;
        break;
      }
      case 'integer': {
        const n = Number(text);
        if (!Number.isSafeInteger(n)) bad('integer');
        else row[field] = n;
        break;
      }
      case 'boolean':
        if (text !== 'true' && text !== 'false') bad('boolean');
        else row[field] = text === 'true';
        break;
      case 'timestamp': {
        const n = /^-?\d+$/.test(text) ? Number(text) : Date.parse(text);
        if (!Number.isFinite(n) || Math.abs(n) > MAX_TIMESTAMP) bad('timestamp');
        else row[field] = n;
        break;
      }
      default:
        row[field] = text;
    }
  }
  return errors.length ? { ok: false, errors } : { ok: true, row };
}
