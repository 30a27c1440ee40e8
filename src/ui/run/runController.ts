import type { InjectParse } from '../../runtime/injectValues.ts';
import { editorStore } from '../store/editorStore.ts';
import { setUi, uiStore } from '../store/uiStore.ts';
import { setTypeProblems, validateNow } from '../validation/validationStore.ts';
import { checkAllUdfs } from '../code/udfCheck.ts';
import { carriesCode } from '../../pipeline/udfSites.ts';
import { engine, liveEngine, loadJob } from './engineClient.ts';
import { logLocal, runStore } from './runStore.ts';
import type { LoadOptions, StepKind } from '../../worker/protocol.ts';
import { filesFor, pruneSourceFiles, syncSourceFiles } from '../projects/sourceFiles.ts';
import { t } from '../i18n/i18n.ts';

/** Speeds offered in the toolbar: records per second, null for as fast as possible. */
export const SPEEDS: { label: string; value: number | null }[] = [
  { label: '1 / s', value: 1 },
  { label: '10 / s', value: 10 },
  { label: '50 / s', value: 50 },
  { label: '500 / s', value: 500 },
  { label: '5,000 / s', value: 5000 },
  { label: 'Max', value: null },
];

const setBusy = (busy: boolean) => runStore.set((s) => ({ ...s, busy }));

/** What the person asked for when the trust prompt interrupted them. */
let afterTrust: 'run' | 'step' = 'run';
let afterTrustStep: StepKind = 'record';

/**
 * Everything that must hold before user code runs: a clean document, trust for code that
 * came from elsewhere, and UDFs that type-check. Returns false (and says why) otherwise.
 */
async function preflight(action: 'run' | 'step'): Promise<boolean> {
  const state = editorStore.get();
  const v = validateNow(state.doc);
  if (v.problems.length) {
    logLocal('error', `not started: the pipeline has ${v.problems.length} problem${v.problems.length > 1 ? 's' : ''}; see Problems`);
    setUi({ bottomTab: 'problems', bottomOpen: true });
    return false;
  }
  if (!state.trusted && carriesCode(state.doc)) {
    afterTrust = action;
    setUi({ dialog: 'trust' });
    return false;
  }
  const typeProblems = await checkAllUdfs(state.doc, v.streams);
  setTypeProblems(typeProblems);
  if (typeProblems.length) {
    const first = typeProblems[0];
    logLocal('error', `not started: ${typeProblems.length} TypeScript error${typeProblems.length > 1 ? 's' : ''} in user code; first in ${first.target} ${first.field}: ${first.message}`, first.target ?? undefined);
    setUi({ bottomTab: 'problems', bottomOpen: true });
    return false;
  }
  return true;
}

/** The namespace of this project's state and checkpoints: two projects (or tabs) never share one. */
export const currentJobId = (): string => editorStore.get().projectId ?? editorStore.get().doc.name;

async function loadCurrent(extra: Pick<LoadOptions, 'resume' | 'savepoint'> = {}): Promise<boolean> {
  const doc = editorStore.get().doc;
  runStore.set((s) => ({ ...s, resumeOffer: null }));
  await syncSourceFiles(editorStore.get().projectId);
  await pruneSourceFiles(editorStore.get().projectId);
  const fileNodes = doc.nodes.filter((n) => n.kind === 'fileSource').map((n) => n.id);
  const files = filesFor(fileNodes);
  for (const id of fileNodes) if (!files[id]) logLocal('warn', t('fileSource.noFileLog', { node: id }), id);
  const res = await loadJob(doc, {
    files,
    speed: runStore.get().speed,
    checkpointIntervalMs: doc.settings?.checkpoint?.intervalMs ?? null,
    backend: doc.settings?.stateBackend ?? 'memory',
    runtime: doc.settings?.runtime ?? 'inProcess',
    jobId: currentJobId(),
    ...extra,
  });
  if (!res.ok) {
    logLocal('error', `not started: ${res.message}`);
    setUi({ bottomTab: 'log', bottomOpen: true });
    return false;
  }
  // A sink the person picked stays picked; otherwise Results keeps its default (the first view).
  const sink = uiStore.get().resultSink;
  if (sink && !res.sinks.includes(sink)) setUi({ resultSink: null });
  return true;
}

const needsLoad = (): boolean => {
  const st = runStore.get().snapshot?.status;
  return !st || st === 'idle' || st === 'finished' || st === 'failed';
};

/** Runs an action of the toolbar; anything it throws is logged, never lost. */
async function guarded(what: string, work: () => Promise<void>): Promise<void> {
  if (runStore.get().busy) return;
  setBusy(true);
  try {
    await work();
  } catch (e) {
    logLocal('error', `${what} failed: ${e instanceof Error ? e.message : String(e)}`);
    setUi({ bottomTab: 'log', bottomOpen: true });
  } finally {
    setBusy(false);
  }
}

export const runPipeline = (): Promise<void> =>
  guarded('run', async () => {
    if (runStore.get().snapshot?.status === 'paused') return void (await engine().run());
    if (!(await preflight('run')) || !(await loadCurrent())) return;
    setUi({ bottomTab: 'results', bottomOpen: true });
    await engine().run();
  });

export const stepPipeline = (kind: StepKind = 'record'): Promise<void> =>
  guarded('step', async () => {
    afterTrustStep = kind;
    if (needsLoad() && (!(await preflight('step')) || !(await loadCurrent()))) return;
    await engine().step(kind);
  });

/** Back one record, watermark or barrier: the engine replays the run's history to the point before. */
export const stepBackPipeline = (kind: StepKind = 'record'): Promise<void> => guarded('step back', () => engine().stepBack(kind));

/** The scrubber: to any point of the run's history (a step count). */
export const seekPipeline = (step: number): Promise<void> => guarded('moving in the run history', () => engine().seek(step));

export const pausePipeline = (): void => void engine().pause();
/** With no worker up (the watchdog stopped it), there is nothing to stop: the failure is put away here. */
export function stopPipeline(): void {
  const live = liveEngine();
  if (live) void live.stop();
  else runStore.set((s) => ({ ...s, snapshot: null }));
}

export function setSpeed(speed: number | null): void {
  runStore.set((s) => ({ ...s, speed }));
  // The next load takes the speed from the store; only a live job needs telling.
  void liveEngine()?.setSpeed(speed);
}

/** The person trusted the imported code: remember it and carry on with the run. */
export function trustAndRun(): void {
  editorStore.set((s) => ({ ...s, trusted: true }));
  setUi({ dialog: null });
  logLocal('info', 'you trusted the code in this pipeline; it runs in the engine worker');
  void (afterTrust === 'step' ? stepPipeline(afterTrustStep) : runPipeline());
}

/** Fault injection from the toolbar: subtask "node#i" fails; the job restarts from its latest checkpoint. */
export const killSubtask = (subtask: string): void => void engine().killSubtask(subtask);

/** A record typed into a source's inject form: the engine's verdict, or why it could not take it. */
export async function injectRecord(source: string, values: Record<string, string>): Promise<InjectParse | { error: string } | null> {
  try {
    return await engine().inject(source, values);
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

export const checkpointNow = (): void => void engine().triggerCheckpoint();

/** Time travel (the checkpoint timeline): state, views and source offsets go back to checkpoint `id`. */
export const restoreTo = (id: number): Promise<void> => guarded(`going back to checkpoint ${id}`, () => engine().restoreTo(id));

/** Saves a retained checkpoint of the running job as a savepoint file. */
export const downloadSavepoint = (id: number): Promise<void> =>
  guarded('download savepoint', async () => {
    const bytes = await engine().exportSavepoint(id);
    const name = `${editorStore.get().doc.name.replace(/[^\w.-]+/g, '-')}-checkpoint-${id}.savepoint.json`;
    const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: 'application/json' }));
    const a = Object.assign(document.createElement('a'), { href: url, download: name });
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    logLocal('info', `savepoint of checkpoint ${id} saved as ${name}`);
  });

/** Starts the current pipeline from an uploaded savepoint instead of from the beginning. */
export const startFromSavepoint = (file: File): Promise<void> =>
  guarded('start from savepoint', async () => {
    const bytes = new Uint8Array(await file.arrayBuffer());
    if (!(await preflight('run')) || !(await loadCurrent({ savepoint: bytes }))) return;
    setUi({ bottomTab: 'results', bottomOpen: true });
    await engine().run();
  });

/** On app start (or project switch): offer to resume when this project left a checkpoint in IndexedDB. */
export async function checkResumable(): Promise<void> {
  const { doc, projectId } = editorStore.get();
  if (!projectId || doc.settings?.stateBackend !== 'indexeddb' || runStore.get().snapshot) return;
  const offer = await engine().resumable(currentJobId());
  runStore.set((s) => ({ ...s, resumeOffer: offer && !s.snapshot ? offer : null }));
}

export const resumeRun = (): Promise<void> =>
  guarded('resume', async () => {
    if (!(await preflight('run')) || !(await loadCurrent({ resume: true }))) return;
    setUi({ bottomTab: 'results', bottomOpen: true });
    await engine().run();
  });

/** The person chose to start over: the next run forgets the old checkpoints. */
export const declineResume = (): void => runStore.set((s) => ({ ...s, resumeOffer: null }));
