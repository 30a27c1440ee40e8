// `node --import tsx bench/node/twins.ts <suites> <events> <keys> <nexmarkEvents> <runs> <warmups>`: the bench
// page's pure suites (keyed count, Nexmark) run in Node on the same inputs; prints one JSON line of `node.*` figures.
import { keyedCountSuite } from '../suites/keyedCount.ts';
import { nexmarkSuite } from '../suites/nexmark.ts';
import { nodeTwin } from '../figures.ts';

const [suites, ...nums] = process.argv.slice(2);
const [events, keys, nexmarkEvents, runs, warmups] = nums.map(Number);
const plan = { runs, warmups };
const figs: Record<string, number> = {};
if (suites.split(',').includes('keyedCount')) Object.assign(figs, await keyedCountSuite({ events, keys }, plan));
if (suites.split(',').includes('nexmark')) Object.assign(figs, await nexmarkSuite(nexmarkEvents, plan));
console.log(JSON.stringify(Object.fromEntries(Object.entries(figs).map(([k, v]) => [nodeTwin(k), v]))));
