import { OpNode } from './OpNode.tsx';
import { OpEdge } from './OpEdge.tsx';

// Module scope: React Flow would remount every node if these objects changed between renders.
export const nodeTypes = { op: OpNode };
export const edgeTypes = { op: OpEdge };
