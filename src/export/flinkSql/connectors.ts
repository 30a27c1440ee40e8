/** The WITH (...) options of each connector, with clearly marked placeholders. */
import type { PlanNode } from '../../pipeline/plan.ts';
import type { ConnectorName } from './options.ts';
import { PLACEHOLDER } from './options.ts';
import { durationText, str } from './sqlText.ts';

export interface ConnectorArgs {
  node: PlanNode;
  connector: ConnectorName;
  format: string;
  /** datagen only */
  rowsPerSecond?: number;
  numberOfRows?: number;
  /** datagen only: TIMESTAMP_LTZ columns and how far in the past their random values may lie. */
  timestampColumns?: string[];
  maxPastMs?: number;
  /** datagen only: the exact field options of a datagen-scenario generator, instead of max-past per timestamp. */
  fieldOptions?: [string, string][];
  /** filesystem source: a changelog format (debezium-json, canal-json, maxwell-json, changelog-json) instead of json. */
  fileFormat?: string;
  /** filesystem source: the node's own path, when it has one. */
  path?: string;
}

/** `'key' = 'value'` lines, in a stable order. */
export function connectorOptions(a: ConnectorArgs): [string, string][] {
  const id = a.node.id;
  switch (a.connector) {
    case 'datagen': {
      const out: [string, string][] = [['connector', 'datagen']];
      if (a.rowsPerSecond !== undefined) out.push(['rows-per-second', String(a.rowsPerSecond)]);
      if (a.numberOfRows !== undefined) out.push(['number-of-rows', String(a.numberOfRows)]);
      if (a.fieldOptions) return [...out, ...a.fieldOptions];
      for (const c of a.timestampColumns ?? []) out.push([`fields.${c}.max-past`, durationText(a.maxPastMs ?? 0)]);
      return out;
    }
    case 'filesystem':
      return [
        ['connector', 'filesystem'],
        ['path', a.path ?? PLACEHOLDER.path(id)],
        ['format', a.fileFormat ?? 'json'],
      ];
    case 'kafka':
      return [
        ['connector', 'kafka'],
        ['topic', PLACEHOLDER.topic(id)],
        ['properties.bootstrap.servers', PLACEHOLDER.bootstrapServers],
        ...(a.node.isSource
          ? ([
              ['properties.group.id', PLACEHOLDER.groupId],
              ['scan.startup.mode', 'earliest-offset'],
            ] as [string, string][])
          : []),
        ['format', a.format],
      ];
    case 'upsert-kafka':
      return [
        ['connector', 'upsert-kafka'],
        ['topic', PLACEHOLDER.topic(id)],
        ['properties.bootstrap.servers', PLACEHOLDER.bootstrapServers],
        ['key.format', a.format],
        ['value.format', a.format],
      ];
    case 'jdbc':
      return [
        ['connector', 'jdbc'],
        ['url', PLACEHOLDER.jdbcUrl],
        ['table-name', id],
      ];
    case 'print':
      return [
        ['connector', 'print'],
        ['print-identifier', id],
      ];
    case 'blackhole':
      return [['connector', 'blackhole']];
  }
}

export function withClause(options: [string, string][]): string {
  return `WITH (\n${options.map(([k, v]) => `  ${str(k)} = ${str(v)}`).join(',\n')}\n)`;
}

/** Connectors that can take -U/+U/-D rows, and those that need a primary key to do so. */
export const acceptsUpdates = (c: ConnectorName): boolean => c === 'print' || c === 'blackhole' || c === 'upsert-kafka' || c === 'jdbc';
export const needsPrimaryKey = (c: ConnectorName): boolean => c === 'upsert-kafka';
export const takesPrimaryKey = (c: ConnectorName): boolean => c === 'upsert-kafka' || c === 'jdbc';
