import { Worker } from 'node:worker_threads';

/**
 * Busy threads that take about `cores` of the machine: each spins for `duty` of every 20 ms and
 * sleeps the rest, so two threads at 0.75 take about 1.5 cores. Stop them with the returned function.
 */
export function startCpuHog(cores: number): () => Promise<void> {
  const threads = Math.ceil(cores);
  const duty = cores / threads;
  const code = `const s = new Int32Array(new SharedArrayBuffer(4));
    for (;;) { const end = Date.now() + ${Math.round(20 * duty)}; while (Date.now() < end); Atomics.wait(s, 0, 0, ${Math.round(20 * (1 - duty))}); }`;
  const workers = Array.from({ length: threads }, () => new Worker(code, { eval: true }));
  return async () => {
    await Promise.all(workers.map((w) => w.terminate()));
  };
}
