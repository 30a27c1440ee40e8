/** What the user chooses for a Flink SQL export; everything has a default. */

export type SourceConnector = 'datagen' | 'filesystem' | 'kafka' | 'upsert-kafka';
export type SinkConnector = 'print' | 'blackhole' | 'kafka' | 'upsert-kafka' | 'jdbc' | 'filesystem';
export type ConnectorName = SourceConnector | SinkConnector;

export const SOURCE_CONNECTORS: readonly SourceConnector[] = ['datagen', 'filesystem', 'kafka', 'upsert-kafka'];
export const SINK_CONNECTORS: readonly SinkConnector[] = ['print', 'blackhole', 'kafka', 'upsert-kafka', 'jdbc', 'filesystem'];

export interface FlinkSqlExportOptions {
  /** Connector per source or sink node id; nodes not listed get the default for their kind. */
  connectors?: Record<string, ConnectorName>;
  /** Default: rocksdb when the pipeline keeps state in IndexedDB (disk), else hashmap. */
  stateBackend?: 'hashmap' | 'rocksdb';
  /** Incremental checkpoints; default: the pipeline's checkpoint setting, else true for rocksdb. */
  incremental?: boolean;
  /** Overrides settings.checkpoint.intervalMs. */
  checkpointIntervalMs?: number;
  /** Overrides settings.parallelism. */
  parallelism?: number;
  /** Sets table.exec.state.ttl for every stateful operator, instead of deriving it from the joins. */
  stateTtlMs?: number;
  /** Kafka / upsert-kafka value format (default json). */
  kafkaFormat?: string;
}

export const PLACEHOLDER = {
  bootstrapServers: '<your-bootstrap-servers>',
  topic: (id: string) => `<your-topic-for-${id}>`,
  path: (id: string) => `file:///<your-data-dir>/${id}.jsonl`,
  jdbcUrl: '<your-jdbc-url>',
  groupId: '<your-consumer-group>',
};

/** Default connector of a source: generated data stays generated, records come from files. */
export function defaultSourceConnector(kind: string): SourceConnector {
  return kind === 'generatorSource' ? 'datagen' : 'filesystem';
}

/**
 * Default connector of a sink. A materialized view with a key is an upsert table; without a key
 * an append-only view still fits a plain Kafka topic, but an updating one only fits print.
 */
export function defaultSinkConnector(kind: string, hasKey: boolean, updating: boolean): SinkConnector {
  if (kind === 'viewSink') return hasKey ? 'upsert-kafka' : updating ? 'print' : 'kafka';
  return 'print';
}

export const isSourceConnector = (c: string): c is SourceConnector => (SOURCE_CONNECTORS as readonly string[]).includes(c);
export const isSinkConnector = (c: string): c is SinkConnector => (SINK_CONNECTORS as readonly string[]).includes(c);
