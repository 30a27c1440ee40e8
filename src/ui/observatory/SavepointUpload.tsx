import { useRef } from 'react';
import { useT } from '../i18n/i18n.ts';
import { startFromSavepoint } from './controls.ts';

/**
 * "Start from savepoint…": a button that opens a file picker; the run controller checks the pipeline
 * (problems, trust) as for any run and logs why a start was refused.
 */
export function SavepointUpload() {
  const t = useT();
  const input = useRef<HTMLInputElement>(null);
  const picked = (file: File | undefined) => {
    if (file) void startFromSavepoint(file);
    if (input.current) input.current.value = '';
  };
  return (
    <>
      <button type="button" className="btn btn-small" onClick={() => input.current?.click()}>
        {t('observatory.cp.startFromSavepoint')}
      </button>
      <input ref={input} type="file" accept=".json,application/json" hidden aria-label={t('observatory.savepoint.file')} onChange={(e) => picked(e.target.files?.[0])} />
    </>
  );
}
