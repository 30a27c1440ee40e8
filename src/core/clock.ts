/** Processing time comes from an injected clock so that tests and step mode are deterministic. */
export interface Clock {
  now(): number;
}

export class ManualClock implements Clock {
  constructor(private t = 0) {}
  now(): number {
    return this.t;
  }
  set(t: number): void {
    if (t > this.t) this.t = t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
}
