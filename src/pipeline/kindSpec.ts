import type { StreamInfo } from '../core/streamInfo.ts';
import type { LineageArgs, PortLineage } from './lineage/types.ts';

export type KindGroup = 'sources' | 'stateless' | 'keyed' | 'windows' | 'joins' | 'state' | 'sinks';

export const KIND_GROUPS: { group: KindGroup; title: string }[] = [
  { group: 'sources', title: 'Sources' },
  { group: 'stateless', title: 'Stateless' },
  { group: 'keyed', title: 'Keyed & aggregates' },
  { group: 'windows', title: 'Windows' },
  { group: 'joins', title: 'Joins' },
  { group: 'state', title: 'State & process' },
  { group: 'sinks', title: 'Sinks' },
];

export interface PortSpec {
  name: string;
  /** Accepts several edges (union). Other inputs take exactly one. */
  multiple?: boolean;
  /** The input must be keyed by an upstream keyBy. */
  keyed?: boolean;
  /** The input is copied to every subtask. */
  broadcast?: boolean;
  /** Input may be left unconnected. */
  optional?: boolean;
  doc: string;
}

/** A JSON Schema fragment; kept loose on purpose so specs stay readable. */
export type JsonSchema = Record<string, unknown>;

export interface Problem {
  /** Node or edge id, or null for the document as a whole. */
  target: string | null;
  targetType: 'node' | 'edge' | 'document';
  /** Dotted path of the field at fault, such as `params.groupBy[0]`. */
  field: string;
  message: string;
  /** A short code the broken-document corpus and the UI can match on. */
  code: string;
}

export interface InferArgs<P> {
  nodeId: string;
  params: P;
  /** The first stream on each port. */
  inputs: Record<string, StreamInfo>;
  /** Every stream on each port, for ports that take several edges. */
  inputLists: Record<string, StreamInfo[]>;
}

export interface InferResult {
  outputs: Record<string, StreamInfo>;
  problems?: { field: string; message: string; code: string }[];
}

export interface KindSpec<P = Record<string, unknown>> {
  kind: string;
  group: KindGroup;
  title: string;
  /** A single glyph for the palette and node header. */
  icon: string;
  /** One line for the palette. */
  summary: string;
  /** What the operator does, precisely enough to reimplement it. Markdown. */
  semantics: string;
  inputs: PortSpec[];
  outputs: PortSpec[];
  /** JSON Schema of `params`. */
  params: JsonSchema;
  /** Params of a freshly dropped node. */
  defaults: P;
  /** Params used by docs and tests as a worked example. */
  example: P;
  stateful: boolean;
  /** Params that hold user code (JS/TS text), for trust prompts, parse checks and exports. */
  codeParams?: (keyof P & string)[];
  /** Why a source with these params must run as one subtask (null: it may run in parallel). */
  singleSubtask?(params: P): string | null;
  /** A source that never ends by itself (a live feed): operators downstream cannot wait for its end. */
  endless?: boolean;
  infer(args: InferArgs<P>): InferResult;
  /**
   * Column lineage: how each column of each output port (as `infer` gave them) is derived from input columns.
   * Left out, a source originates its columns and any other kind passes same-named columns through.
   */
  lineage?(args: LineageArgs<P>): Record<string, PortLineage>;
}
