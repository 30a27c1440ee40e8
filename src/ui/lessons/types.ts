import type { PipelineDocument } from '../../pipeline/document.ts';
import type { ObservationFrame } from '../../runtime/observe/types.ts';
import type { RunSnapshot } from '../../worker/protocol.ts';

/**
 * What happened during a lesson that a single snapshot cannot tell: restarts, rewinds,
 * dialogs opened, peaks of state size. Built by `noteSnapshot` (events.ts), pure.
 */
export interface LessonEvents {
  /** Times a run went from not running to running. */
  runs: number;
  /** Runs that reached 'finished', with the state backend of the document at that moment. */
  finished: { backend: string; records: number }[];
  /** Restarts after a failure (a killed subtask), summed over runs. */
  restarts: number;
  /** Times the records read went backwards inside one run: a restore or a time-travel jump. */
  rewinds: number;
  /** Most completed checkpoints seen in one run. */
  checkpoints: number;
  /** A barrier was seen on an edge; a subtask was seen aligning. */
  barrierSeen: boolean;
  alignmentSeen: boolean;
  /** Dialogs the learner opened (by name), e.g. 'flinkSql'. */
  dialogs: string[];
  /** Peak keyed-state keys per `node|ttl` (ttl of the node's params, or 'none'), to compare runs. */
  peakKeys: Record<string, number>;
  /** Per node and subtask count: keys per subtask in the latest frame with that count. */
  spread: Record<string, Record<number, number[]>>;
}

export const NO_EVENTS: LessonEvents = {
  runs: 0, finished: [], restarts: 0, rewinds: 0, checkpoints: 0, barrierSeen: false, alignmentSeen: false, dialogs: [], peakKeys: {}, spread: {},
};

/** Everything a check may look at. Checks are pure: same input, same verdict. */
export interface CheckInput {
  doc: PipelineDocument;
  snapshot: RunSnapshot | null;
  frame: ObservationFrame | null;
  events: LessonEvents;
  /** The learner's answer to this step's question, if it has one. */
  answer: string;
}

export type Check = (input: CheckInput) => boolean;

export interface LessonStep {
  /** Message key of the step text (what to do, what to watch); may contain [[term]] markers. */
  text: string;
  check?: Check;
  /** Message key of a question; the answer field's label. The check reads `answer`. */
  question?: string;
}

export interface Lesson {
  id: string;
  /** 1-based number shown in the list. */
  n: number;
  title: string;
  summary: string;
  /** Under public/lessons/. */
  pipeline: string;
  steps: LessonStep[];
}
