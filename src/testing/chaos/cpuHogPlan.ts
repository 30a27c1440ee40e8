/**
 * The script of a CPU hog that takes about `cores` of the machine, for Node worker_threads and
 * Web Workers alike: each thread spins for `duty` of every 20 ms and sleeps the rest, so two
 * threads at 0.75 take about 1.5 cores. It sleeps with Atomics.wait where SharedArrayBuffer
 * exists (Node, a cross-origin isolated page) and otherwise by spinning less often.
 */
export function cpuHogPlan(cores: number): { threads: number; code: string } {
  const threads = Math.ceil(cores);
  const duty = cores / threads;
  const busy = Math.round(20 * duty);
  const idle = Math.round(20 * (1 - duty));
  const code = `const s = typeof SharedArrayBuffer === 'function' ? new Int32Array(new SharedArrayBuffer(4)) : null;
    const spin = () => { const end = Date.now() + ${busy}; while (Date.now() < end); };
    if (s) for (;;) { spin(); Atomics.wait(s, 0, 0, ${idle}); }
    else { const tick = () => { spin(); setTimeout(tick, ${idle}); }; tick(); }`;
  return { threads, code };
}
