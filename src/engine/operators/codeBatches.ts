import type { Element } from '../../core/types.ts';
import type { CodeOutcome, LoadedCode } from '../codeHost.ts';
import { isCodeLimitError } from '../codeHost.ts';

/**
 * Records cross to the code host in chunks of this many: large enough that the crossing costs
 * little per record, small enough that the watchdog's per-batch limit stays meaningful.
 */
export const CODE_BATCH = 512;

/** Calls the code for every element in chunks, handing each element and its outcome to `each`, in order. */
export function eachOutcome(code: LoadedCode, mode: 'value' | 'test', els: readonly Element[], each: (el: Element, out: CodeOutcome) => void): void {
  for (let from = 0; from < els.length; from += CODE_BATCH) {
    const chunk = els.length <= CODE_BATCH ? els : els.slice(from, from + CODE_BATCH);
    let outs: CodeOutcome[];
    try {
      outs = code.callEach(mode, chunk.map((el) => el.row));
    } catch (e) {
      throw atElement(e, chunk);
    }
    for (let i = 0; i < chunk.length; i++) each(chunk[i], outs[i]);
  }
}

/** How a value that is not what the code should return is named in a dead letter. */
export const shapeOf = (v: unknown): string => (v === undefined ? 'nothing (undefined: does a { … } body lack its return?)' : v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`);

/** A broken limit learns the element of the record it stopped at, so its message can name that record's source line. */
export function atElement(e: unknown, handedOver: readonly Element[]): unknown {
  if (isCodeLimitError(e) && e.record !== undefined && e.element === undefined) e.element = handedOver[e.record];
  return e;
}
