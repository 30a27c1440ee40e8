import type { Spawn, SpawnedWorker } from './spawn.ts';

/**
 * Warm workers. Starting a worker means loading the engine into a fresh thread (about 0.1–2 s
 * here, more under load), which is most of a restart. The pool starts standby workers ahead
 * of need (Flink keeps standby task managers for the same reason), hands them out through
 * `take` (a Spawn), and takes healthy ones back when a job ends normally. A worker that failed
 * or was killed is terminated, never reused.
 */
export class WorkerPool {
  private idle: SpawnedWorker[] = [];
  private serial = 0;
  private closed = false;

  constructor(private readonly spawn: Spawn) {}

  private start(): SpawnedWorker {
    const w = this.spawn(this.serial++);
    w.onFailure(() => {
      this.idle = this.idle.filter((x) => x !== w);
    });
    return w;
  }

  /** Makes sure `n` workers are started and waiting. */
  prewarm(n: number): void {
    while (!this.closed && this.idle.length < n) this.idle.push(this.start());
  }

  readonly take: Spawn = () => {
    const w = this.idle.shift() ?? this.start();
    let done = false;
    return {
      endpoint: w.endpoint,
      terminate: () => {
        done = true;
        w.terminate();
      },
      onFailure: (cb) => w.onFailure((reason, fatal) => !done && cb(reason, fatal)),
      recycle: () => {
        if (done) return;
        done = true;
        if (this.closed) w.terminate();
        else this.idle.push(w);
      },
    };
  };

  get size(): number {
    return this.idle.length;
  }

  close(): void {
    this.closed = true;
    for (const w of this.idle) w.terminate();
    this.idle = [];
  }
}
