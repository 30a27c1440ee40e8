import { useState } from 'react';
import { useStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import { dispatch } from '../actions/registry.ts';
import { useT } from '../i18n/i18n.ts';
import type { PipelineTest } from '../../pipeline/tests/testSpec.ts';
import type { TestOutcome } from '../../runtime/pipelineTests/runTests.ts';
import { formatOutcome } from '../../runtime/pipelineTests/runTests.ts';
import { setTests } from './testActions.ts';
import { recordTestInWorker, runTestsInWorker } from './testsClient.ts';
import './tests.css';

type Status = { state: 'idle' } | { state: 'busy' } | { state: 'error'; message: string };

/** Pipeline tests: record from a run, edit as JSON, run, and see pass/fail with a diff per sink. */
export function TestsPanel() {
  const t = useT();
  const doc = useStore(editorStore, (s) => s.doc);
  const tests = doc.tests ?? [];
  const [outcomes, setOutcomes] = useState<Record<string, TestOutcome>>({});
  const [status, setStatus] = useState<Status>({ state: 'idle' });
  const [editing, setEditing] = useState<{ index: number; text: string; error?: string } | null>(null);

  const runAll = async () => {
    setStatus({ state: 'busy' });
    try {
      const res = await runTestsInWorker(editorStore.get().doc);
      setOutcomes(Object.fromEntries(res.map((o) => [o.name, o])));
      setStatus({ state: 'idle' });
    } catch (e) {
      setStatus({ state: 'error', message: (e as Error).message });
    }
  };
  const record = async () => {
    setStatus({ state: 'busy' });
    try {
      const current = editorStore.get().doc;
      const names = new Set((current.tests ?? []).map((x) => x.name));
      let n = (current.tests?.length ?? 0) + 1;
      while (names.has(t('tests.recordedName', { n }))) n++;
      const test = await recordTestInWorker(current, t('tests.recordedName', { n }));
      dispatch(setTests, [...(current.tests ?? []), test]);
      setStatus({ state: 'idle' });
    } catch (e) {
      setStatus({ state: 'error', message: (e as Error).message });
    }
  };
  const save = () => {
    if (!editing) return;
    try {
      const parsed = JSON.parse(editing.text) as PipelineTest;
      const next = [...tests];
      next[editing.index] = parsed;
      dispatch(setTests, next);
      setEditing(null);
    } catch (e) {
      setEditing({ ...editing, error: (e as Error).message });
    }
  };
  const busy = status.state === 'busy';
  const passed = tests.filter((x) => outcomes[x.name]?.passed).length;
  const ran = tests.filter((x) => outcomes[x.name]).length;
  return (
    <div className="tests-panel">
      <div className="results-bar">
        <button type="button" className="btn" onClick={runAll} disabled={busy || !tests.length}>{t('tests.runAll')}</button>
        <button type="button" className="btn" onClick={record} disabled={busy}>{t('tests.record')}</button>
        {busy && <span className="muted">{t('tests.running')}</span>}
        {ran > 0 && !busy && <span className={passed === ran ? 'test-pass' : 'test-fail'}>{t('tests.summary', { passed, failed: ran - passed })}</span>}
        {status.state === 'error' && <span className="test-fail" role="alert">{status.message}</span>}
      </div>
      {!tests.length && <div className="panel-empty">{t('tests.empty')}</div>}
      <ul className="tests-list">
        {tests.map((test, i) => {
          const o = outcomes[test.name];
          return (
            <li key={`${i}-${test.name}`} className="test-item">
              <div className="test-head">
                <span className={o ? (o.passed ? 'test-pass' : 'test-fail') : 'muted'} aria-label={o ? t(o.passed ? 'tests.pass' : 'tests.fail') : t('tests.notRun')}>
                  {o ? (o.passed ? '✓' : '✗') : '○'}
                </span>
                <strong>{test.name}</strong>
                <span className="muted">{t('tests.describe', { sources: Object.keys(test.given).length, checks: test.expect.length })}</span>
                <span className="spacer" />
                <button type="button" className="btn-small" onClick={() => setEditing({ index: i, text: JSON.stringify(test, null, 2) })}>{t('tests.edit')}</button>
                <button type="button" className="btn-small" onClick={() => dispatch(setTests, tests.filter((_, j) => j !== i))}>{t('tests.delete')}</button>
              </div>
              {o && !o.passed && <pre className="test-diff mono" aria-label={t('tests.diff')}>{formatOutcome(o)}</pre>}
              {editing?.index === i && (
                <div className="test-editor">
                  <textarea className="mono" aria-label={t('tests.editLabel', { name: test.name })} value={editing.text} rows={12} spellCheck={false} onChange={(e) => setEditing({ ...editing, text: e.target.value, error: undefined })} />
                  {editing.error && <div className="test-fail" role="alert">{t('tests.badJson', { message: editing.error })}</div>}
                  <button type="button" className="btn" onClick={save}>{t('tests.save')}</button>
                  <button type="button" className="btn-small" onClick={() => setEditing(null)}>{t('tests.cancel')}</button>
                </div>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
