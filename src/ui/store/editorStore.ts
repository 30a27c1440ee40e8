import type { PipelineDocument } from '../../pipeline/document.ts';
import { PIPELINE_FORMAT, PIPELINE_VERSION } from '../../pipeline/document.ts';
import { createStore } from './createStore.ts';

export interface Selection {
  nodes: string[];
  edges: string[];
}

/** How the document reached this browser. Code that arrived from elsewhere needs a trust decision. */
export type DocOrigin = 'local' | 'example' | 'import' | 'link';

export interface EditorState {
  doc: PipelineDocument;
  selection: Selection;
  /** Documents before each committed edit, oldest first. */
  past: PipelineDocument[];
  future: PipelineDocument[];
  /** The document as of the last history entry; uncommitted edits (a drag in progress) sit on top of it. */
  committed: PipelineDocument;
  origin: DocOrigin;
  /** False when the document came by import or link, carries code, and nobody said they trust it yet. */
  trusted: boolean;
  projectId: string | null;
}

export const emptyDocument = (name = 'Untitled pipeline'): PipelineDocument => ({
  format: PIPELINE_FORMAT,
  version: PIPELINE_VERSION,
  name,
  nodes: [],
  edges: [],
});

export const noSelection: Selection = { nodes: [], edges: [] };

const initialDoc = emptyDocument();

export const editorStore = createStore<EditorState>({
  doc: initialDoc,
  selection: noSelection,
  past: [],
  future: [],
  committed: initialDoc,
  origin: 'local',
  trusted: true,
  projectId: null,
});

export const HISTORY_LIMIT = 200;
