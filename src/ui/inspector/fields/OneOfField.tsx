import Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import type { JsonSchema } from '../../../pipeline/kindSpec.ts';
import type { FieldProps } from './fieldTypes.ts';
import { emptyValue, propsOf } from './fieldTypes.ts';
import { SchemaField } from './SchemaField.tsx';
import { t, useT } from '../../i18n/i18n.ts';

const ajv = new Ajv({ strict: false, allErrors: false });
const cache = new WeakMap<JsonSchema, ValidateFunction>();
const matches = (s: JsonSchema, v: unknown): boolean => {
  let f = cache.get(s);
  if (!f) cache.set(s, (f = ajv.compile(s)));
  return f(v);
};

/** A name for an alternative: its title, its constant tag (`{ type: { const: 'tumble' } }`), or its type. */
function altName(s: JsonSchema, i: number): string {
  if (typeof s.title === 'string') return s.title;
  for (const [k, ps] of Object.entries(propsOf(s))) if (ps.const !== undefined) return `${k}: ${String(ps.const)}`;
  if (typeof s.type === 'string') return s.type;
  if (Array.isArray(s.required)) return (s.required as string[]).join(' + ');
  return t('inspector.option', { n: i + 1 });
}

/** Seeds a value for an alternative, filling its constant tag so it matches straight away. */
function seed(s: JsonSchema): unknown {
  const v = emptyValue(s);
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    for (const [k, ps] of Object.entries(propsOf(s))) if (ps.const !== undefined) (v as Record<string, unknown>)[k] = ps.const;
  }
  return v;
}

/** A value that may take one of several shapes: a switch picks the shape, then its own form shows. */
export function OneOfField(p: FieldProps) {
  const alts = p.schema.oneOf as JsonSchema[];
  const found = p.value === undefined ? -1 : alts.findIndex((a) => matches(a, p.value));
  const current = found;
  const id = `${p.path}-alt`;
  const tr = useT();
  return (
    <fieldset className="field-group" aria-label={p.name}>
      <legend className="field-label">{p.name}</legend>
      <div className="mode-switch" role="radiogroup" aria-label={tr('inspector.kindOf', { name: p.name })}>
        {alts.map((a, i) => (
          <label key={i} className={`mode${i === current ? ' mode-on' : ''}`}>
            <input type="radio" name={id} checked={i === current} onChange={() => p.onChange(seed(a))} />
            {altName(a, i)}
          </label>
        ))}
        {!p.required && (
          <label className={`mode${current < 0 && p.value === undefined ? ' mode-on' : ''}`}>
            <input type="radio" name={id} checked={p.value === undefined} onChange={() => p.onChange(undefined)} />
            {tr('inspector.none')}
          </label>
        )}
      </div>
      {current >= 0 && <SchemaField {...p} name={altName(alts[current], current)} schema={{ ...alts[current], description: undefined, title: undefined }} required />}
      {current < 0 && p.value !== undefined && <SchemaField {...p} schema={{}} />}
    </fieldset>
  );
}
