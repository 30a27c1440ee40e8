import type { KindSpec } from './kindSpec.ts';
import type { PipelineDocument, PortRef } from './document.ts';
import type { StreamInfo } from '../core/streamInfo.ts';

export type Partitioning = 'forward' | 'hash' | 'rebalance' | 'broadcast';

export interface PlanEdge {
  id: string;
  from: PortRef;
  to: PortRef;
  info: StreamInfo;
  partitioning: Partitioning;
  /** Key fields when the edge is hash-partitioned. */
  keyFields: string[] | null;
}

export interface PlanNode {
  id: string;
  kind: string;
  label: string;
  params: Record<string, unknown>;
  spec: KindSpec;
  inputs: Record<string, StreamInfo>;
  outputs: Record<string, StreamInfo>;
  parallelism: number;
  isSource: boolean;
  isSink: boolean;
  /** Input ports fed, directly or further up, by a source that never ends by itself. */
  endlessInputs?: string[];
}

/** A validated, inferred pipeline, in topological order: what runtimes and exports consume. */
export interface JobPlan {
  doc: PipelineDocument;
  nodes: PlanNode[];
  edges: PlanEdge[];
  seed: number;
  maxParallelism: number;
}
