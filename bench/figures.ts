// Every figure of the benchmark report: its name in results.json, its target, where it is measured,
// and one line saying what it is.
import { isFailedText, isLatencyText, NO_PREVIEW } from './lib/latencyText.ts';

export interface Figure {
  name: string;
  what: string;
  unit: 'events/s' | 'ratio' | 'ms' | 'µs' | 'bytes' | 'fps' | 'count';
  target?: { op: '>=' | '<='; value: number; text?: string };
  /** Flink 1.13's published figure, for the Nexmark rows. */
  flink?: number;
  /** Where the figure is measured: in Chromium workers of the bench page (default) or only in Node. */
  where?: 'chromium' | 'node';
}

/** A figure's value: a number, a text that says why there is none (latency), or null (not measured). */
export type FigureValue = number | string | null;

/** Suites of the bench page that also run in Node; their Node figures are `node.<name>`. */
export const NODE_TWINS = ['keyedCount', 'nexmark'] as const;
export const nodeTwin = (name: string) => `node.${name}`;

const f = (name: string, unit: Figure['unit'], what: string, target?: Figure['target'], flink?: number): Figure => ({ name, unit, what, target, flink });
const nodeOnly = (fig: Figure): Figure => ({ ...fig, where: 'node' });
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
export const UI_TABS = ['State', 'Windows', 'Checkpoints', 'Metrics', 'Trace', 'Query'] as const;

export const FIGURES: Figure[] = [
  nodeOnly(f('sqlImport.fiftyStatementsMs', 'ms', 'Planning a 50-statement Flink SQL script (5 tables, 15 views, 15 sinks, 15 INSERTs: filters, aggregates, window TVFs, interval joins, Top-N) into a checked pipeline document, median.', le(200))),
  nodeOnly(f('sqlImport.fiftyStatementsP90Ms', 'ms', 'The same, 90th percentile.')),
  f('sqlEditor.import.fiftyStatementsMs', 'ms', 'The same 50-statement script planned in a Chromium worker (where the SQL tab plans), median.', le(200)),
  f('sqlEditor.import.fiftyStatementsP90Ms', 'ms', 'The same, 90th percentile.'),
  f('sqlEditor.keystrokeToDiagnosticsMs', 'ms', "The designer's SQL tab with the medallion seed script applied: a typo typed at the end of a table name, measured in the page from the keydown to the first error underline in the DOM (the planner's run in its worker and the marker's render included), Backspace between; median of the warm keystrokes.", le(50)),
  f('sqlEditor.keystrokeToDiagnosticsMaxMs', 'ms', 'The slowest of those keystrokes.'),
  f('sqlEditor.firstKeystrokeToDiagnosticsMs', 'ms', 'The first keystroke of the session, with the planner cold.'),
  f('keyedCount.engineEventsPerSec', 'events/s', "Weir's keyed count + sum (source → keyBy → GROUP BY → view, 100k keys, memory state) in one worker."),
  f('keyedCount.handLoopEventsPerSec', 'events/s', 'A hand-written Map loop over the same ready event objects in the same worker: the limit.'),
  f('keyedCount.ratioToLoop', 'ratio', 'Weir ÷ hand loop, median of paired rounds.', ge(0.3)),
  f('keyedCount.ratioToRxjs', 'ratio', 'Weir ÷ RxJS groupBy + scan on the same events.', ge(5)),
  f('keyedCount.ratioToDbIvm', 'ratio', 'Weir ÷ @tanstack/db-ivm groupBy with count/sum, fed in batches of 1,000.', ge(20)),
  f('crossWorker.engineEventsPerSec', 'events/s', "The keyed count across a worker boundary: the engine's SourceTask in one worker, its GROUP BY and view operators (NodeTask, memory backend) in another, batches encoded by the threaded runtime's columnar codec (src/runtime/threaded/codec.ts, typed arrays transferred) over a MessageChannel with credit."),
  f('crossWorker.singleWorkerEventsPerSec', 'events/s', 'The same SourceTask, GROUP BY and view operators with the same batches, all in one worker, nothing encoded.'),
  f('crossWorker.ratioToSingleWorker', 'ratio', 'Keyed count across the boundary ÷ in one worker, throughput (wall time), median of rounds. Across the boundary, source and aggregate overlap on two cores, so with a spare core this can pass 1 while the boundary still costs work: `busyRatioToSingleWorker` gives that cost.', ge(0.9)),
  f('crossWorker.busyRatioToSingleWorker', 'ratio', 'Time the one worker spent on the keyed count ÷ time both workers spent working across the boundary (poll + encode + send in the source, decode + operators in the sink; waits excluded): the work the boundary adds, whatever the core count.'),
  f('crossWorker.passThroughEventsPerSec', 'events/s', 'Source → map → sink across the same boundary: SourceTask in one worker; a pass-through map (`amount = amount`) and a blackhole sink that reads every field in the other, same codec and channel.'),
  f('crossWorker.rawTransferEventsPerSec', 'events/s', 'The same records as transferred typed-array batches (Int32 keys, Float64 amounts) over the same channel, every field read on arrival: the limit.'),
  f('crossWorker.passThroughRatioToRaw', 'ratio', 'Pass-through pipeline across workers ÷ raw transfer, median of rounds.', ge(0.3)),
  f('stateBackend.memoryEventsPerSec', 'events/s', 'The keyed count (5M events, 100k keys) on the memory backend with a checkpoint every `stateBackend.checkpointIntervalMs` of wall time: the consistent cut copied into the heap checkpoint store, as the runtime does.'),
  f('stateBackend.indexeddbEventsPerSec', 'events/s', 'The same keyed count on the IndexedDB backend with the same checkpoints: `persist()`, incremental chunks written while records keep flowing.'),
  f('stateBackend.ratioIndexeddbToMemory', 'ratio', 'IndexedDB ÷ memory, both checkpointing every second, interleaved and paired per round. On both sides one checkpoint is in flight at a time (as the runtime\'s coordinator and Flink\'s default), so a checkpoint longer than the interval delays the next (`stateBackend.memoryCheckpointsPerRun` / `indexeddbCheckpointsPerRun` count those started in the timed region). The timed region ends with the last event; the final checkpoint (the flush) is outside it on both sides.', ge(0.7, '≥ 0.7 (Flink RocksDB: 0.06–0.2 of heap)')),
  f('checkpoint.fullMs1MKeys', 'ms', 'A full checkpoint (every key dirty) of the count + sum state, from persist() to durable.'),
  f('checkpoint.rawWriteMs1MKeys', 'ms', 'The same entries written raw as 512-entry chunk values in one strict IndexedDB transaction, same run.'),
  f('checkpoint.ratioFullToRaw', 'ratio', 'Full checkpoint ÷ raw write.', le(1.2)),
  f('checkpoint.ratioIncrementalToFull', 'ratio', 'A checkpoint after 1% of the keys changed ÷ a full one.', le(0.05)),
  f('checkpoint.syncPartMaxMs', 'ms', 'The longest synchronous (pipeline-stalling) part of persist() over the full and incremental checkpoints.'),
  f('recovery.restoreMs1MKeys', 'ms', 'Restoring the checkpoint into a fresh backend.'),
  f('recovery.ratioToRawRead', 'ratio', 'Restore ÷ raw read (getAll) of the raw chunks.', le(1.2)),
  f('scaling.eventsPerSec.keys1k', 'events/s', 'Keyed count throughput with 1k keys.'),
  f('scaling.eventsPerSec.keys10k', 'events/s', 'Keyed count throughput with 10k keys.'),
  f('scaling.eventsPerSec.keys100k', 'events/s', 'Keyed count throughput with 100k keys.'),
  f('scaling.eventsPerSec.keys1M', 'events/s', 'Keyed count throughput with 1M keys.'),
  f('scaling.checkpointMs.keys1k', 'ms', 'Full checkpoint of 1k keys.'),
  f('scaling.checkpointMs.keys10k', 'ms', 'Full checkpoint of 10k keys.'),
  f('scaling.checkpointMs.keys100k', 'ms', 'Full checkpoint of 100k keys.'),
  f('scaling.checkpointMs.keys1M', 'ms', 'Full checkpoint of 1M keys.'),
  nodeOnly(f('inProcess.cpuMicrosPerRecord', 'µs', 'CPU (user + system) per record of the keyed count on the one runtime in one process, as a plain run uses it: the job master over the in-process transport, one subtask per node, simulated processing time, no checkpoints (Node; compare an older build with bench/profile/ab.ts).')),
  nodeOnly(f('memory.bytesPerKey', 'bytes', 'Heap per key of the count + sum GROUP BY state, memory backend (Node, forced GC before and after).', le(100))),
  nodeOnly(f('memory.pipelineBytesPerKey', 'bytes', 'Heap per key of the whole keyed count: GROUP BY state and view (chained, the view reads the state and keeps no rows).', le(100))),
  nodeOnly(f('csv.ingestRecordsPerSec', 'events/s', 'CSV through a fileSource\'s reader and source task, from the bytes of the file read in 1 MB blocks as a dropped file is (papaparse in batches, cells typed by the schema, event time and watermarks), Node, one thread.')),
  nodeOnly(f('csv.pipelineRecordsPerSec', 'events/s', 'The same CSV bytes through a whole fileSource → collectSink pipeline on the in-process runtime (Node, one thread).')),
  nodeOnly(f('csv.papaparseRecordsPerSec', 'events/s', "papaparse's bare parse of the same text in one call, no types (Node).")),
  nodeOnly(f('csv.ratioIngestToParse', 'ratio', 'CSV ingest rate (source alone) ÷ bare parse rate.', ge(0.5, '≥ 0.5'))),
  nodeOnly(f('csv.ratioPipelineToParse', 'ratio', 'CSV rate through source → sink ÷ bare parse rate.', ge(0.5, '≥ 0.5'))),
  nodeOnly(f('stepBack.medianMs', 'ms', "Step back one record at 10k records into a designer run (orders LEFT JOIN payments, two subtasks each, observatory attached, a checkpoint and a kill in the history): the session deploys the job again and replays its history to the point before, median (Node).", le(200))),
  nodeOnly(f('stepBack.maxMs', 'ms', 'The same, slowest of the trials.')),
  nodeOnly(f('stepBack.medianCpuMs', 'ms', 'The same in CPU time of the process (user + system), median: what it costs without the other processes of a shared machine.')),
  f('latency.offeredEventsPerSec', 'events/s', 'The rate the latency job is offered: records scheduled at fixed intervals.'),
  f('latency.achievedEventsPerSec', 'events/s', 'The rate the job took them at (records after warm-up ÷ the time the pacer needed to let them go; credit holds the pacer back when the job cannot keep up), median of runs.'),
  f('latency.sustainedEventsPerSec', 'events/s', 'The offered rate when the job achieved at least 0.99 of it; otherwise the highest rate found that it did (a search of single runs below what it achieved; 0 if none).'),
  f('latency.previewP99Ms', 'ms', `Event-to-preview latency, 99th percentile, at 100k ev/s sustained: sink changes visible at once, before their checkpoint commits (the runtime's \`onPreview\` stream, in the same runs as the committed figures). "${NO_PREVIEW}" when the runtime offers no such stream.`, le(50, '≤ 50 at 100k ev/s sustained')),
  f('latency.committedP50Ms', 'ms', 'Event-to-view latency, median, at the offered rate if sustained: a BrowserJob on Web Workers (inline source; a pacing map on a worker of its own, `JobOptions.ownWorker`; keyed aggregate and view sink at parallelism 2 on the other two), records stamped with their scheduled wall time, measured when the sink publishes them (exactly-once: when their checkpoint completes; memory state, checkpoint every `latency.checkpointIntervalMs`).'),
  f('latency.committedP99Ms', 'ms', 'The same, 99th percentile.'),
  f('latency.committedOverIntervalP99Ms', 'ms', 'Committed p99 minus the checkpoint interval: what the pipeline adds above the exactly-once floor.', le(30, '≤ 30 at 100k ev/s sustained')),
  f('latency.checkpointP99Ms', 'ms', 'Checkpoint duration (trigger → complete) of those runs, 99th percentile per run, median of runs.'),
  f('latency.atSustained.committedP99Ms', 'ms', 'When the offered rate is not sustained: committed p99 at `latency.sustainedEventsPerSec`, one run.'),
  f('latency.atSustained.committedOverIntervalP99Ms', 'ms', 'The same minus the interval.'),
  f('latency.atSustained.previewP99Ms', 'ms', 'Preview p99 at that rate, where the runtime has a preview stream.'),
  nodeOnly(f('threaded.cpuUsPerRecord', 'µs', 'CPU (user + system, every thread of the process) per input record of the keyed count on the threaded runtime in Node worker_threads: keyBy, GROUP BY and view at `threaded.parallelism`, JSON Lines input, memory state, a checkpoint every second; workers pooled, so start-up is in the warm-up run only.', le(3))),
  nodeOnly(f('threaded.eventsPerSec', 'events/s', 'Wall-clock throughput of the same runs.')),
  ...NEXMARK.map(([q, flink, what]) => f(`nexmark.${q}.eventsPerSecPerCore`, 'events/s', `Nexmark ${q}: ${what}; one worker, generator included, a memory checkpoint every \`nexmark.checkpointIntervalMs\` (\`nexmark.${q}.checkpointsPerRun\`).`, ge(flink * 10, `≥ ${((flink * 10) / 1e6).toFixed(2)} M (10× Flink)`), flink)),
  f('incrementalVsRecompute.ratio', 'ratio', "sql.js recomputing sales_by_store's GROUP BY over all rows ÷ Weir's cost per update of the maintained view (times in Weir's favour).", ge(1000)),
  f('ui.fpsMedian', 'fps', 'Median over runs of frames per second (requestAnimationFrame timestamps inside the page) of the designer in headless Chromium while top_cities_per_minute (generator → keyed tumbling-window aggregate → Top-N → view) runs at Max speed, with the canvas overlays live and the bottom panel on State with the window node selected.', ge(55)),
  f('ui.throughputRatioWithUi', 'ratio', "Source records/s of that run (from the worker's snapshots, via the run status) ÷ the same document in the same ClusterSession code driven from a bare worker with no observatory request and no rendering; paired per round, median.", ge(0.8)),
  f('ui.fpsChart', 'fps', 'Frames per second, same run, with the bottom panel on Results showing the top_cities view as its live line chart (uPlot; revenue per city over window_start, top 10 cities, redrawn by setData as the view changes).', ge(55)),
  f('ui.chartFrameMsP95', 'ms', '95th percentile frame time during that chart sample.'),
  ...UI_TABS.map((tab) => f(`ui.fpsByTab.${tab.toLowerCase()}`, 'fps', `Frames per second, same run, with the bottom panel on ${tab}.`)),
];

/** Figures that cannot be measured yet, and why; the run writes them as null. */
export const PENDING: Record<string, string> = {
  'scaling.checkpointMs.keys1M': 'null in --quick only (a full checkpoint of 1M keys with its warm-up takes longer than the quick budget on this machine); the full run measures it',
};

/** Met, missed, or null (no target, or nothing to judge: not measured, "n/a"). A latency at a rate not sustained misses, as does a failed suite's figure. */
export function meets(fig: Figure, v: FigureValue | undefined): boolean | null {
  if (!fig.target || v === null || v === undefined) return null;
  // A suite that failed (timed out, threw) misses its targets; so does a latency at a rate not sustained.
  if (typeof v === 'string') return (isLatencyText(v) && v !== NO_PREVIEW) || isFailedText(v) ? false : null;
  if (!Number.isFinite(v)) return null;
  return fig.target.op === '>=' ? v >= fig.target.value : v <= fig.target.value;
}

/** The rows of the target table: one or more figures each, with the previous full run's values for comparison. */
export interface TargetRow {
  figures: string[];
  previous: string;
  /** Says what the target applies to, where the figure name does not. */
  note?: string;
}

export const NEXMARK_QUERY_IDS = NEXMARK.map(([q]) => q);

export const TARGETS: TargetRow[] = [
  { figures: ['keyedCount.ratioToLoop'], previous: '0.143' },
  { figures: ['keyedCount.ratioToRxjs', 'keyedCount.ratioToDbIvm'], previous: '1.95 / 8.37' },
  { figures: ['crossWorker.ratioToSingleWorker', 'crossWorker.passThroughRatioToRaw'], previous: '0.84 / —' },
  { figures: ['stateBackend.ratioIndexeddbToMemory'], previous: '0.315' },
  { figures: ['checkpoint.ratioFullToRaw', 'checkpoint.ratioIncrementalToFull'], previous: '1.87 / 0.012' },
  { figures: ['recovery.ratioToRawRead'], previous: '1.37' },
  { figures: ['memory.bytesPerKey'], previous: '254' },
  { figures: ['memory.pipelineBytesPerKey'], previous: '253 (view unchained)' },
  { figures: ['threaded.cpuUsPerRecord'], previous: '9–14' },
  { figures: ['latency.previewP99Ms'], previous: '—' },
  { figures: ['latency.committedOverIntervalP99Ms'], previous: '— (890 ms total, 78.6k sustained)' },
  { figures: NEXMARK.map(([q]) => `nexmark.${q}.eventsPerSecPerCore`), previous: '2.1×–11.8×, no checkpoints', note: 'each query, with checkpoints' },
  { figures: ['ui.fpsMedian', 'ui.throughputRatioWithUi'], previous: '47 / 0.70' },
  { figures: ['sqlEditor.keystrokeToDiagnosticsMs'], previous: '326 ms (e2e, 200 ms debounce)' },
  { figures: ['sqlEditor.import.fiftyStatementsMs', 'sqlImport.fiftyStatementsMs'], previous: '— (Chromium) / not benched', note: 'Chromium worker / Node' },
];
