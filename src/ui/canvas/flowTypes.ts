import type { Edge, Node } from '@xyflow/react';
import type { PipelineEdge, PipelineNode } from '../../pipeline/document.ts';

export type OpNodeData = { node: PipelineNode };
export type OpFlowNode = Node<OpNodeData, 'op'>;
export type OpEdgeData = { edge: PipelineEdge };
export type OpFlowEdge = Edge<OpEdgeData, 'op'>;
