// `node --import tsx bench/node/inProcess.ts <events> <keys> <runs> <warmups>`: prints one JSON line of figures.
import { inProcessSuite } from '../suites/inProcess.ts';

const [events, keys, runs, warmups] = process.argv.slice(2).map(Number);
const figs = await inProcessSuite({ events: events || 1_000_000, keys: keys || 100_000 }, { runs: runs || 5, warmups: warmups ?? 1 });
console.log(JSON.stringify(figs));
