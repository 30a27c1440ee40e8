// Every figure of the benchmark report: its name in results.json, its target, and one line saying what it is.
export interface Figure {
  name: string;
  what: string;
  unit: 'events/s' | 'ratio' | 'ms' | 'µs' | 'bytes' | 'fps' | 'count';
  target?: { op: '>=' | '<='; value: number; text?: string };
  /** Flink 1.13's published figure, for the Nexmark rows. */
  flink?: number;
}

const f = (name: string, unit: Figure['unit'], what: string, target?: Figure['target'], flink?: number): Figure => ({ name, unit, what, target, flink });
const ge = (value: number, text?: string) => ({ op: '>=' as const, value, text });
const le = (value: number, text?: string) => ({ op: '<=' as const, value, text });

const NEXMARK: [string, number, string][] = [
  ['q0', 155_020, 'pass-through projection of bids'],
  ['q1', 157_940, 'bid price converted to euros'],
  ['q2', 175_210, 'bids of every 123rd auction'],
  ['q5', 22_140, 'hot items: HOP(2 s, 10 s) bid counts joined with each window\'s maximum'],
  ['q7', 12_330, 'highest bid per TUMBLE(10 s) window, joined back to the bids'],
  ['q8', 146_140, 'new users: persons and auction sellers in the same TUMBLE(10 s) window'],
  ['q12', 75_670, 'bids per bidder in processing-time TUMBLE(10 s) windows'],
  ['q17', 116_800, 'per auction and day: counts by price band, min, max, avg, sum'],
];

/** Bottom tabs the ui suite measures, in order; the first is the main figure (the heaviest: every key's state). */
export const UI_TABS = ['State', 'Windows', 'Checkpoints', 'Trace', 'Query'] as const;

export const FIGURES: Figure[] = [
  f('sqlImport.fiftyStatementsMs', 'ms', 'Planning a 50-statement Flink SQL script (5 tables, 15 views, 15 sinks, 15 INSERTs: filters, aggregates, window TVFs, interval joins, Top-N) into a checked pipeline document, median.', le(200)),
  f('sqlImport.fiftyStatementsP90Ms', 'ms', 'The same, 90th percentile.'),
  f('keyedCount.engineEventsPerSec', 'events/s', "Weir's keyed count + sum (source → keyBy → GROUP BY → view, 100k keys, memory state) in one worker."),
  f('keyedCount.handLoopEventsPerSec', 'events/s', 'A hand-written Map loop over the same ready event objects in the same worker: the limit.'),
  f('keyedCount.ratioToLoop', 'ratio', 'Weir ÷ hand loop, median of paired rounds.', ge(0.3)),
  f('keyedCount.ratioToRxjs', 'ratio', 'Weir ÷ RxJS groupBy + scan on the same events.', ge(5)),
  f('keyedCount.ratioToDbIvm', 'ratio', 'Weir ÷ @tanstack/db-ivm groupBy with count/sum, fed in batches of 1,000.', ge(20)),
  f('crossWorker.engineEventsPerSec', 'events/s', "Weir's SourceTask in one worker, its GROUP BY and view operators in another, batches encoded by the threaded runtime's columnar codec (src/runtime/threaded/codec.ts, typed arrays transferred) over a MessageChannel with credit."),
  f('crossWorker.rawTransferEventsPerSec', 'events/s', 'The same records as transferred typed-array batches over the same channel, only touched on arrival: the limit.'),
  f('crossWorker.ratioToRaw', 'ratio', 'Cross-worker engine ÷ raw transfer.', ge(0.3)),
  f('stateBackend.ratioIndexeddbToMemory', 'ratio', 'Keyed count with the IndexedDB backend and a checkpoint every second ÷ the memory backend without checkpoints. As in the runtime (and Flink by default) one checkpoint is in flight at a time, so a checkpoint that takes longer than a second delays the next (`stateBackend.checkpointsPerRun` counts them, the final one included).', ge(0.7, '≥ 0.7 (Flink RocksDB: 0.06–0.2 of heap)')),
  f('checkpoint.fullMs1MKeys', 'ms', 'A full checkpoint (every key dirty) of the count + sum state, from persist() to durable.'),
  f('checkpoint.rawWriteMs1MKeys', 'ms', 'The same entries written raw as 512-entry chunk values in one strict IndexedDB transaction, same run.'),
  f('checkpoint.ratioFullToRaw', 'ratio', 'Full checkpoint ÷ raw write.', le(1.5)),
  f('checkpoint.ratioIncrementalToFull', 'ratio', 'A checkpoint after 1% of the keys changed ÷ a full one.', le(0.1)),
  f('checkpoint.syncPartMaxMs', 'ms', 'The longest synchronous (pipeline-stalling) part of persist() over the full and incremental checkpoints.'),
  f('recovery.restoreMs1MKeys', 'ms', 'Restoring the checkpoint into a fresh backend.'),
  f('recovery.ratioToRawRead', 'ratio', 'Restore ÷ raw read (getAll) of the raw chunks.', le(1.5)),
  f('scaling.eventsPerSec.keys1k', 'events/s', 'Keyed count throughput with 1k keys.'),
  f('scaling.eventsPerSec.keys10k', 'events/s', 'Keyed count throughput with 10k keys.'),
  f('scaling.eventsPerSec.keys100k', 'events/s', 'Keyed count throughput with 100k keys.'),
  f('scaling.eventsPerSec.keys1M', 'events/s', 'Keyed count throughput with 1M keys.'),
  f('scaling.checkpointMs.keys1k', 'ms', 'Full checkpoint of 1k keys.'),
  f('scaling.checkpointMs.keys10k', 'ms', 'Full checkpoint of 10k keys.'),
  f('scaling.checkpointMs.keys100k', 'ms', 'Full checkpoint of 100k keys.'),
  f('scaling.checkpointMs.keys1M', 'ms', 'Full checkpoint of 1M keys.'),
  f('inProcess.cpuMicrosPerRecord', 'µs', 'CPU (user + system) per record of the keyed count on the one runtime in one process, as a plain run uses it: the job master over the in-process transport, one subtask per node, simulated processing time, no checkpoints (Node; compare an older build with bench/profile/ab.ts).'),
  f('memory.bytesPerKey', 'bytes', 'Heap per key of the count + sum GROUP BY state, memory backend (Node, forced GC before and after).', le(150)),
  f('csv.ingestRecordsPerSec', 'events/s', 'CSV through a fileSource (papaparse in batches, cells typed by the schema, event time and watermarks), Node, one thread.'),
  f('csv.papaparseRecordsPerSec', 'events/s', "papaparse's bare parse of the same text in one call, no types (Node)."),
  f('csv.ratioIngestToParse', 'ratio', 'CSV ingest rate ÷ bare parse rate.', ge(0.5, '≥ 0.5')),
  f('latency.p50Ms', 'ms', 'Event-to-view latency, median: a BrowserJob on Web Workers (source + pacing map in one, keyed aggregate and view sink at parallelism 2), records scheduled at 100k/s and stamped with their scheduled wall time, measured when the sink publishes them (exactly-once: when their checkpoint completes; memory state, checkpoint every 100 ms). `latency.achievedEventsPerSec` says whether the job kept up.'),
  f('latency.p99Ms', 'ms', 'Event-to-view latency, 99th percentile, same runs.', le(50)),
  f('latency.fastCheckpoints.p99Ms', 'ms', 'The same job with a checkpoint every 20 ms (`latency.fastCheckpoints.checkpointIntervalMs`), alternating with the 100 ms runs: exactly-once output waits for its checkpoint, so the interval is the floor of the latency.', le(50)),
  ...NEXMARK.map(([q, flink, what]) => f(`nexmark.${q}.eventsPerSecPerCore`, 'events/s', `Nexmark ${q}: ${what}; one worker, generator included.`, ge(flink * 10, `≥ ${((flink * 10) / 1e6).toFixed(2)} M (10× Flink)`), flink)),
  f('incrementalVsRecompute.ratio', 'ratio', "sql.js recomputing sales_by_store's GROUP BY over all rows ÷ Weir's cost per update of the maintained view (times in Weir's favour).", ge(1000)),
  f('ui.fpsMedian', 'fps', 'Median over runs of frames per second (requestAnimationFrame timestamps inside the page) of the designer in headless Chromium while top_cities_per_minute (generator → keyed tumbling-window aggregate → Top-N → view) runs at Max speed, with the canvas overlays live and the bottom panel on State with the window node selected.', ge(55)),
  f('ui.throughputRatioWithUi', 'ratio', "Source records/s of that run (from the worker's snapshots, via the run status) ÷ the same document in the same ClusterSession code driven from a bare worker with no observatory request and no rendering; paired per round, median.", ge(0.8)),
  ...UI_TABS.map((tab) => f(`ui.fpsByTab.${tab.toLowerCase()}`, 'fps', `Frames per second, same run, with the bottom panel on ${tab}.`)),
];

/** Figures that cannot be measured yet, and why; the run writes them as null. */
export const PENDING: Record<string, string> = {
  'scaling.checkpointMs.keys1M': 'null in --quick only (a full checkpoint of 1M keys with its warm-up takes longer than the quick budget on this machine); the full run measures it',
};

export function meets(fig: Figure, v: number | null): boolean | null {
  if (!fig.target || v === null || !Number.isFinite(v)) return null;
  return fig.target.op === '>=' ? v >= fig.target.value : v <= fig.target.value;
}
