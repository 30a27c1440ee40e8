import { loadCode } from './codeHost.ts';
import type { InvokeAnswer } from './codeHost.ts';
import type { Accumulator } from './aggregates.ts';
import type { AggregateCall } from '../pipeline/kinds/aggregateCall.ts';
import type { Row } from '../core/types.ts';

/**
 * A user-defined aggregate: an object with create(), add(acc, value), get(acc) and optionally
 * retract(acc, value) and merge(a, b), run in the code host like every other user code. The
 * accumulator is plain data kept by the host's state (so checkpoints hold it); each method call
 * crosses to the code's realm with it and brings the new accumulator back.
 */
export function userAccumulator(call: AggregateCall): Accumulator {
  const what = `aggregate "${call.as}" code`;
  const code = loadCode({ nodeId: '', what }, call.code ?? '', 'object');
  const methods = new Set((code.shape as { methods: string[] }).methods);
  if (!methods.has('create') || !methods.has('add') || !methods.has('get')) {
    throw new Error(`aggregate "${call.as}": code must define create(), add(acc, value) and get(acc)`);
  }
  const f = call.field;
  const value = (r: Row) => (f === undefined ? r : r[f]);
  const invoke = (m: string, a: unknown[]): unknown => answerOf(what, code.invoke({ t: 'method', m, a }));
  return {
    create: () => invoke('create', []),
    add: (a, r) => invoke('add', [a, value(r)]),
    retract: (a, r) => {
      if (!methods.has('retract')) throw new Error(`aggregate "${call.as}" received a retraction but defines no retract(acc, value)`);
      return invoke('retract', [a, value(r)]);
    },
    get: (a) => invoke('get', [a]),
    merge: (a, b) => {
      if (!methods.has('merge')) throw new Error(`aggregate "${call.as}" must define merge(a, b) to be used in session windows`);
      return invoke('merge', [a, b]);
    },
  };
}

function answerOf(what: string, answer: InvokeAnswer): unknown {
  if (answer.e !== undefined) throw new Error(answer.e);
  if (answer.s !== undefined) throw new Error(`${what} returned the wrong shape: ${answer.s}`);
  return answer.v;
}
