/// <reference lib="webworker" />
// The headless side of ui.throughputRatioWithUi: the designer's own ClusterSession (the code behind
// the engine worker), loaded with the same document and options, run at max speed, with nobody
// asking for observatory panels and nothing rendering its snapshots. Only (time, records) is kept.
import { ClusterSession } from '../../src/worker/clusterSession.ts';
import type { PipelineDocument } from '../../src/pipeline/document.ts';

export interface HeadlessRequest {
  doc: PipelineDocument;
  warmupMs: number;
  measureMs: number;
  jobId: string;
}

export type HeadlessReply = { ok: true; recordsPerSec: number; records: number; snapshots: number } | { ok: false; error: string };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function measure(req: HeadlessRequest): Promise<HeadlessReply> {
  const session = new ClusterSession();
  const seen: { at: number; records: number; status: string }[] = [];
  session.onSnapshot((s) => void seen.push({ at: performance.now(), records: s.records, status: s.status }));
  const loaded = await session.load(req.doc, {
    speed: null,
    checkpointIntervalMs: req.doc.settings?.checkpoint?.intervalMs ?? null,
    backend: req.doc.settings?.stateBackend ?? 'memory',
    jobId: req.jobId,
  });
  if (!loaded.ok) return { ok: false, error: `headless load of "${req.doc.name}" failed: ${loaded.message}` };
  session.run();
  await sleep(req.warmupMs);
  const from = seen.length;
  await sleep(req.measureMs);
  const window = seen.slice(Math.max(0, from - 1));
  await session.stop();
  const first = window[0];
  const last = window[window.length - 1];
  if (!first || last === first) return { ok: false, error: 'headless run posted no snapshot during the measurement' };
  if (last.status !== 'running') return { ok: false, error: `headless run ended as "${last.status}" inside the measurement; raise the generator count` };
  return { ok: true, recordsPerSec: ((last.records - first.records) * 1000) / (last.at - first.at), records: last.records, snapshots: window.length };
}

self.onmessage = async (e: MessageEvent<HeadlessRequest>) => {
  try {
    self.postMessage(await measure(e.data));
  } catch (err) {
    self.postMessage({ ok: false, error: String((err as Error)?.stack ?? err) } satisfies HeadlessReply);
  }
};
