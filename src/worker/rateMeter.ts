/** Records per second over the last second of wall-clock time, from samples taken when snapshots go out. */
export class RateMeter {
  private window: { at: number; records: number }[] = [];

  sample(now: number, records: number): number {
    this.window.push({ at: now, records });
    while (this.window.length > 2 && now - this.window[0].at > 1000) this.window.shift();
    const first = this.window[0];
    return now > first.at ? Math.max(0, ((records - first.records) * 1000) / (now - first.at)) : 0;
  }

  reset(): void {
    this.window = [];
  }
}
