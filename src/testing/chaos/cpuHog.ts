import { Worker } from 'node:worker_threads';
import { cpuHogPlan } from './cpuHogPlan.ts';

/**
 * Busy threads that take about `cores` of the machine (see cpuHogPlan). Stop them with the
 * returned function.
 */
export function startCpuHog(cores: number): () => Promise<void> {
  const { threads, code } = cpuHogPlan(cores);
  const workers = Array.from({ length: threads }, () => new Worker(code, { eval: true }));
  return async () => {
    await Promise.all(workers.map((w) => w.terminate()));
  };
}
