// A CPU hog of Web Workers for the lab page: about `cores` of the machine busy beside the job.
import { cpuHogPlan } from '../../src/testing/chaos/cpuHogPlan.ts';

export function startBrowserHog(cores: number): () => void {
  const { threads, code } = cpuHogPlan(cores);
  const url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
  const workers = Array.from({ length: threads }, () => new Worker(url));
  return () => {
    for (const w of workers) w.terminate();
    URL.revokeObjectURL(url);
  };
}
