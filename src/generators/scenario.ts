import type { Row } from '../core/types.ts';
import type { Rng } from '../core/rng.ts';
import { seededRng } from '../core/rng.ts';
import type { FieldType } from '../core/streamInfo.ts';
import type { DatagenTable } from './datagen.ts';

/**
 * What every record of a generated stream may depend on. Nothing else: record i is a pure
 * function of this context and i, which is what makes `seek(offset)` replay exactly.
 */
export interface ScenarioContext {
  seed: number;
  /** Units (records, visits, orders) the stream covers. */
  count: number;
  /** Cardinality: customers, stores or sequence keys. */
  keys: number;
  startTime: number;
  /** Event-time distance between two consecutive units. */
  intervalMs: number;
  disorderMs: number;
  /** The datagen scenario's columns (the other scenarios have their own fixed fields). */
  table?: DatagenTable;
}

/**
 * A synthetic data set. A unit (one slot of event time) yields `recordsPerUnit` record indexes:
 * index i belongs to unit floor(i / recordsPerUnit).
 */
export interface Scenario {
  name: string;
  summary: string;
  /** The declared schema; every scenario has a `ts` timestamp field. */
  fields: Record<string, FieldType>;
  /** Default cardinality when params.keys is not given. */
  defaultKeys: number;
  /** Record indexes per unit, default 1. */
  recordsPerUnit?: number;
  /** Records per unit on average (some indexes yield none), for pacing; default recordsPerUnit. */
  meanRecordsPerUnit?: number;
  /**
   * When records do not arrive in index order (payments trail their orders), the nominal arrival
   * time of index i, or null when that index yields no record. Must be ≥ slot(unit of i): the
   * reader relies on that bound to release buffered records in arrival order.
   */
  arrival?(i: number, ctx: ScenarioContext): number | null;
  /** Record i, or null when index i yields no record. `rng` is private to (scenario, seed, i). */
  row(i: number, rng: Rng, ctx: ScenarioContext): Row | null;
}

/**
 * Nominal event time of a unit, before disorder, in whole milliseconds (event time is a BIGINT of
 * milliseconds, as in Flink): above 1,000 records per second several records share a millisecond.
 */
export const slot = (ctx: ScenarioContext, unit: number): number => Math.floor(ctx.startTime + unit * ctx.intervalMs);

/** How far a record's event time lags its arrival: 0..disorderMs, drawn from the record's own rng. */
export const disorder = (ctx: ScenarioContext, rng: Rng): number => (ctx.disorderMs > 0 ? rng.int(ctx.disorderMs + 1) : 0);

/** An rng private to (seed, stream, i): correlated scenarios regenerate each other's records with it. */
export function rngFor(ctx: ScenarioContext, stream: string, i: number): Rng {
  return seededRng(recordSeed(streamSeed(ctx, stream), i));
}

/** The part of a record's seed shared by every record of one stream: hashed once per reader, not per record. */
export const streamSeed = (ctx: ScenarioContext, stream: string): number => mix(ctx.seed >>> 0, hashText(stream));

/** The seed of `rngFor(ctx, stream, i)`, given `streamSeed(ctx, stream)`. */
export const recordSeed = (stream: number, i: number): number => mix(stream, i >>> 0);

/** murmur3-style mixing, so that neighbouring indexes get unrelated generators. */
function mix(a: number, b: number): number {
  let h = Math.imul(a ^ Math.imul(b, 0xcc9e2d51), 0x1b873593);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function hashText(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** A random amount with two decimals, in [min, max). */
export const money = (rng: Rng, min: number, max: number): number => Math.round((min + rng.next() * (max - min)) * 100) / 100;

/** An integer in [min, max]. */
export const between = (rng: Rng, min: number, max: number): number => min + rng.int(max - min + 1);
