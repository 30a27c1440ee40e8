// `node --import tsx bench/node/threaded.ts <events> <keys> <parallelism> <checkpointIntervalMs> <runs> <warmups>`: prints one JSON line of figures.
import { threadedSuite } from '../suites/threaded.ts';

const [events, keys, parallelism, checkpointIntervalMs, runs, warmups] = process.argv.slice(2).map(Number);
const figs = await threadedSuite({ events: events || 300_000, keys: keys || 100_000, parallelism: parallelism || 2, checkpointIntervalMs: checkpointIntervalMs || 1000 }, { runs: runs || 5, warmups: warmups ?? 1 });
console.log(JSON.stringify(figs));
// Pooled worker_threads would keep the process alive.
process.exit(0);
