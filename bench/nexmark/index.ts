// The Nexmark queries as Weir pipeline documents, and Flink 1.13's published throughput per core
// (nexmark project README: 8 TaskManagers × 1 slot, RocksDB incremental checkpoints every 3 min,
// mini-batch on, 100 M events from its datagen at 10 M events/s).
import q0 from './q0.json';
import q1 from './q1.json';
import q2 from './q2.json';
import q5 from './q5.json';
import q7 from './q7.json';
import q8 from './q8.json';
import q12 from './q12.json';
import q17 from './q17.json';

export const NEXMARK_QUERIES: Record<string, unknown> = { q0, q1, q2, q5, q7, q8, q12, q17 };

/** Events per second per core, Flink 1.13 (README "Throughput/Cores"). */
export const FLINK_PER_CORE: Record<string, number> = {
  q0: 155_020,
  q1: 157_940,
  q2: 175_210,
  q5: 22_140,
  q7: 12_330,
  q8: 146_140,
  q12: 75_670,
  q17: 116_800,
};
