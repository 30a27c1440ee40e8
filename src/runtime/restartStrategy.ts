export type RestartStrategy =
  | { type: 'fixedDelay'; delayMs: number; maxAttempts: number }
  | { type: 'exponentialBackoff'; initialDelayMs: number; maxDelayMs: number; multiplier: number; maxAttempts: number }
  | { type: 'none' };

export const DEFAULT_RESTART: RestartStrategy = { type: 'exponentialBackoff', initialDelayMs: 100, maxDelayMs: 5000, multiplier: 2, maxAttempts: 10 };

/** The delay before restart number `attempt` (1-based), or null when attempts are exhausted. */
export function restartDelay(s: RestartStrategy, attempt: number): number | null {
  switch (s.type) {
    case 'none':
      return null;
    case 'fixedDelay':
      return attempt > s.maxAttempts ? null : s.delayMs;
    case 'exponentialBackoff':
      return attempt > s.maxAttempts ? null : Math.min(s.maxDelayMs, s.initialDelayMs * s.multiplier ** (attempt - 1));
  }
}
