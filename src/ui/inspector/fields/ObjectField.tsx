import type { JsonSchema } from '../../../pipeline/kindSpec.ts';
import type { FieldProps, ProblemMap } from './fieldTypes.ts';
import { emptyValue, helpOf, isVisible, propsOf, requiredOf, withKey } from './fieldTypes.ts';
import { SchemaField } from './SchemaField.tsx';
import { InlineMarkdown } from '../InlineMarkdown.tsx';
import { useT } from '../../i18n/i18n.ts';

/** `oneOf: [{ required: ['set'] }, { required: ['code'] }]`: alternatives that pick which properties apply. */
export function modeAlternatives(s: JsonSchema): string[][] | null {
  if (!Array.isArray(s.oneOf)) return null;
  const alts = (s.oneOf as JsonSchema[]).map((a) => (Array.isArray(a.required) && !a.properties ? (a.required as string[]) : null));
  return alts.every(Boolean) ? (alts as string[][]) : null;
}

/** The alternative whose properties are set; the first one when none is. */
export const activeMode = (modes: string[][], value: Record<string, unknown>): number => Math.max(0, modes.findIndex((m) => m.every((k) => value[k] !== undefined)));

const hasProblemsUnder = (problems: ProblemMap, path: string): boolean => [...problems.keys()].some((f) => f === path || f.startsWith(`${path}[`) || f.startsWith(`${path}.`));

/** Fields of an object; with a oneOf of required sets, a mode switch shows one set at a time. */
export function ObjectFields(p: FieldProps & { seed?: Record<string, unknown> }) {
  const value = (p.value && typeof p.value === 'object' ? p.value : {}) as Record<string, unknown>;
  const props = propsOf(p.schema);
  const required = requiredOf(p.schema);
  const modes = modeAlternatives(p.schema);
  const mode = modes ? activeMode(modes, value) : -1;
  const hidden = new Set(modes ? modes.filter((_, i) => i !== mode).flat() : []);
  const modeKeys = new Set(modes?.flat() ?? []);
  const t = useT();
  const switchTo = (i: number) => {
    let next = { ...value };
    for (const k of modeKeys) delete next[k];
    for (const k of modes![i]) next = withKey(next, k, structuredClone(p.seed?.[k]) ?? emptyValue(props[k] ?? {}));
    p.onChange(next);
  };
  return (
    <>
      {modes && (
        <div className="mode-switch" role="radiogroup" aria-label={t('inspector.mode', { name: p.name })}>
          {modes.map((m, i) => (
            <label key={m.join('+')} className={`mode${i === mode ? ' mode-on' : ''}`}>
              <input type="radio" name={`${p.path}-mode`} checked={i === mode} onChange={() => switchTo(i)} />
              {m.join(' + ')}
            </label>
          ))}
        </div>
      )}
      {Object.entries(props)
        .filter(([k, s]) => !hidden.has(k) && isVisible(s, value, hasProblemsUnder(p.problems, `${p.path}.${k}`)))
        .map(([k, s]) => (
          <SchemaField
            key={k}
            {...p}
            name={k}
            schema={s}
            value={value[k]}
            path={`${p.path}.${k}`}
            siblings={value}
            helpPath={p.helpPath === undefined ? undefined : `${p.helpPath}.${k}`}
            required={required.includes(k) || (modes?.[mode]?.includes(k) ?? false)}
            onChange={(v) => p.onChange(withKey(value, k, v))}
          />
        ))}
    </>
  );
}

/** A nested object such as `eventTime`, shown as a titled group; an optional one can be switched off. */
export function ObjectField(p: FieldProps) {
  const present = p.value !== undefined && p.value !== null;
  const help = helpOf(p);
  const t = useT();
  return (
    <fieldset className="field-group" aria-label={p.name}>
      <legend className="field-label">
        {p.name}
        {!p.required && (
          <label className="toggle-inline">
            <input type="checkbox" checked={present} onChange={(e) => p.onChange(e.target.checked ? emptyValue(p.schema) : undefined)} aria-label={t('inspector.useField', { name: p.name })} />
            {t('inspector.use')}
          </label>
        )}
      </legend>
      {help && (
        <div className="field-help">
          <InlineMarkdown text={help} />
        </div>
      )}
      {(p.problems.get(p.path) ?? []).map((m) => (
        <div key={m} className="field-error">
          {m}
        </div>
      ))}
      {(present || p.required) && <ObjectFields {...p} />}
    </fieldset>
  );
}
