import { useEffect } from 'react';
import { useStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import { useT } from '../i18n/i18n.ts';
import type { t as translate } from '../i18n/i18n.ts';
import { runStore } from './runStore.ts';
import { checkResumable, declineResume, resumeRun } from './runController.ts';

/** "3 min ago": how old the checkpoint is, in the person's language. */
export function timeAgo(t: typeof translate, then: number, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - then) / 1000));
  if (s < 5) return t('run.ago.now');
  if (s < 60) return t('run.ago.seconds', { n: s });
  if (s < 3600) return t('run.ago.minutes', { n: Math.round(s / 60) });
  if (s < 86_400) return t('run.ago.hours', { n: Math.round(s / 3600) });
  return t('run.ago.days', { n: Math.round(s / 86_400) });
}

/** After a reload: offers to resume this project's interrupted run from its latest checkpoint. */
export function ResumePrompt() {
  const t = useT();
  const projectId = useStore(editorStore, (s) => s.projectId);
  const backend = useStore(editorStore, (s) => s.doc.settings?.stateBackend ?? 'memory');
  const offer = useStore(runStore, (s) => s.resumeOffer);
  useEffect(() => {
    void checkResumable().catch(() => undefined);
  }, [projectId, backend]);
  if (!offer) return null;
  const title = t('run.resumeTitle');
  return (
    <div className="resume-prompt" role="dialog" aria-label={title}>
      <h2>{title}</h2>
      <p>{t('run.resumeBody', { id: offer.checkpointId, records: offer.records.toLocaleString(), ago: timeAgo(t, offer.completedAt) })}</p>
      <div className="actions">
        <button type="button" className="btn" onClick={declineResume}>
          {t('run.startOver')}
        </button>
        <button type="button" className="btn btn-primary" onClick={() => void resumeRun()}>
          {t('run.resume')}
        </button>
      </div>
    </div>
  );
}
