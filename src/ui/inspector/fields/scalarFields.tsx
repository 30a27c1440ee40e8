import { FieldShell, describedBy } from './FieldShell.tsx';
import { domId } from './fieldTypes.ts';
import type { FieldProps } from './fieldTypes.ts';
import { useDraft } from './useDraft.ts';
import { useT } from '../../i18n/i18n.ts';

/** Params such as `field` or `timeField` name an input field: offer the upstream ones. */
const looksLikeFieldName = (name: string): boolean => /field$/i.test(name);

export function StringField(p: FieldProps & { mono?: boolean }) {
  const value = typeof p.value === 'string' ? p.value : '';
  const list = looksLikeFieldName(p.name) && p.fieldNames.length ? `${domId(p.path)}-fields` : undefined;
  return (
    <FieldShell p={p}>
      <input
        id={domId(p.path)}
        className={`input${p.mono ? ' mono' : ''}`}
        type="text"
        value={value}
        list={list}
        spellCheck={false}
        aria-describedby={describedBy(p) || undefined}
        aria-invalid={p.problems.has(p.path) || undefined}
        onChange={(e) => p.onChange(e.target.value === '' && !p.required ? undefined : e.target.value)}
      />
      {list && (
        <datalist id={list}>
          {p.fieldNames.map((f) => (
            <option key={f} value={f} />
          ))}
        </datalist>
      )}
    </FieldShell>
  );
}

/** `x-weir-expr`: a SQL-like expression on one line, checked by compile as you type. */
export function ExprField(p: FieldProps) {
  return <StringField {...p} mono />;
}

export function NumberField(p: FieldProps) {
  const unit = typeof p.schema['x-weir-unit'] === 'string' ? (p.schema['x-weir-unit'] as string) : null;
  const draft = useDraft(typeof p.value === 'number' ? String(p.value) : '');
  const integer = p.schema.type === 'integer';
  return (
    <FieldShell p={p}>
      <div className="input-with-unit">
        <input
          id={domId(p.path)}
          className="input"
          type="text"
          inputMode={integer ? 'numeric' : 'decimal'}
          value={draft.text}
          aria-describedby={describedBy(p) || undefined}
          aria-invalid={p.problems.has(p.path) || undefined}
          onFocus={draft.focus}
          onBlur={draft.blur}
          onChange={(e) => {
            const t = e.target.value;
            draft.setText(t);
            if (t.trim() === '') return p.onChange(undefined);
            const n = Number(t);
            if (Number.isFinite(n)) p.onChange(n);
          }}
        />
        {unit && <span className="unit">{unit}</span>}
      </div>
    </FieldShell>
  );
}

export function BoolField(p: FieldProps) {
  return (
    <FieldShell p={p}>
      <input
        id={domId(p.path)}
        type="checkbox"
        className="checkbox"
        checked={p.value === true}
        aria-describedby={describedBy(p) || undefined}
        onChange={(e) => p.onChange(e.target.checked ? true : p.required ? false : undefined)}
      />
    </FieldShell>
  );
}

export function EnumField(p: FieldProps) {
  const options = (p.schema.enum as unknown[]) ?? [];
  const index = options.findIndex((o) => JSON.stringify(o) === JSON.stringify(p.value));
  const t = useT();
  return (
    <FieldShell p={p}>
      <select
        id={domId(p.path)}
        className="input"
        value={index < 0 ? '' : String(index)}
        aria-describedby={describedBy(p) || undefined}
        aria-invalid={p.problems.has(p.path) || undefined}
        onChange={(e) => p.onChange(e.target.value === '' ? undefined : options[Number(e.target.value)])}
      >
        {(index < 0 || !p.required) && <option value="">{p.required ? t('inspector.choose') : t('inspector.notSet')}</option>}
        {options.map((o, i) => (
          <option key={i} value={String(i)}>
            {typeof o === 'string' ? o : JSON.stringify(o)}
          </option>
        ))}
      </select>
    </FieldShell>
  );
}
