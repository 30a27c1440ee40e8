import type { TtlConfig } from './descriptors.ts';
import type { StateTime } from './backend.ts';

/** Reads the clock a descriptor's TTL is measured in. */
export function ttlNow(ttl: TtlConfig | undefined, time: StateTime): number {
  if (!ttl) return 0;
  return ttl.time === 'event' ? time.eventTime() : time.processingTime();
}

export function isExpired(ttl: TtlConfig | undefined, touched: number, now: number): boolean {
  return ttl !== undefined && now - touched >= ttl.ttlMs;
}
