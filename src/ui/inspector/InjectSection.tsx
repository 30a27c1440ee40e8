import { useState } from 'react';
import type { PipelineNode } from '../../pipeline/document.ts';
import { kindSpec } from '../../pipeline/kinds/index.ts';
import { parseInjectValues } from '../../runtime/injectValues.ts';
import type { InjectFieldError } from '../../runtime/injectValues.ts';
import { useStore } from '../store/createStore.ts';
import { validationStore } from '../validation/validationStore.ts';
import { runStore } from '../run/runStore.ts';
import { injectRecord } from '../run/runController.ts';
import { useT } from '../i18n/i18n.ts';
import { Section } from './Section.tsx';

/** What each column type accepts, shown as the field's placeholder. */
const HINT: Record<string, string> = { number: '3.5', integer: '42', boolean: 'true / false', timestamp: '2024-01-01T00:00:00Z · 1704067200000', string: '' };

/**
 * Inject a record into the running job through this source: one field per column of its schema.
 * Each field is checked as it is typed, by the same parser the engine uses to type the record; the
 * engine checks again on submit (and alone reports a missing event time), so nothing wrong is sent.
 */
export function InjectSection({ node }: { node: PipelineNode }) {
  const t = useT();
  const out = useStore(validationStore, (v) => v.streams[node.id]?.outputs.out);
  const status = useStore(runStore, (s) => s.snapshot?.status ?? 'idle');
  const onWorkers = useStore(runStore, (s) => s.snapshot?.runsOn === 'workers');
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<InjectFieldError[]>([]);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  if (kindSpec(node.kind)?.group !== 'sources') return null;
  const fields = Object.entries(out?.fields ?? {});
  const running = status === 'ready' || status === 'running' || status === 'paused';
  const live = running && !onWorkers;
  // Checked while typing: only fields with text in them, so an untouched form shows no errors.
  const typed = parseInjectValues({ schema: Object.fromEntries(fields), eventTime: out?.eventTime ? { field: out.eventTime } : undefined }, values);
  const typing = typed.ok ? [] : typed.errors.filter((e) => e.code !== 'required' && (values[e.field] ?? '').trim() !== '');
  const submit = async () => {
    const r = await injectRecord(node.id, values);
    if (!r) return;
    if ('error' in r) {
      setErrors([]);
      setNote({ ok: false, text: r.error });
    } else if (r.ok) {
      setErrors([]);
      setValues({});
      setNote({ ok: true, text: t('inject.done', { row: JSON.stringify(r.row) }) });
    } else {
      setErrors(r.errors);
      setNote(null);
    }
  };
  return (
    <Section title={t('inject.title')}>
      {!live && <p className="muted small">{t(running ? 'inject.onWorkers' : status === 'finished' || status === 'failed' ? 'inject.ended' : 'inject.notLive')}</p>}
      {fields.length === 0 ? (
        <p className="muted small">{t('inject.noSchema')}</p>
      ) : (
        <form
          className="inject-form"
          aria-label={t('inject.formLabel', { node: node.id })}
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          {fields.map(([name, type]) => {
            const err = typing.find((x) => x.field === name) ?? errors.find((x) => x.field === name);
            return (
              <label key={name} className="field-label">
                <span>
                  {name} <span className="muted">{type}{out?.eventTime === name ? ` · ${t('inject.eventTime')}` : ''}</span>
                </span>
                <input
                  type="text"
                  value={values[name] ?? ''}
                  placeholder={HINT[type] ?? ''}
                  aria-invalid={err ? true : undefined}
                  onChange={(e) => {
                    setValues({ ...values, [name]: e.target.value });
                    // The engine's verdict on this field is about the old text.
                    setErrors(errors.filter((x) => x.field !== name));
                  }}
                />
                {err && <span className="field-error">{t(`inject.error.${err.code}`, { got: err.got, type })}</span>}
              </label>
            );
          })}
          {errors
            .filter((e) => !fields.some(([n]) => n === e.field))
            .map((e) => (
              <p key={e.field} className="field-error">
                {t(`inject.error.${e.code}`, { got: e.got, field: e.field })}
              </p>
            ))}
          <button type="submit" disabled={!live}>
            {t('inject.submit')}
          </button>
          {note && live && (
            <p className={note.ok ? 'muted small' : 'field-error'} role="status">
              {note.text}
            </p>
          )}
        </form>
      )}
    </Section>
  );
}
