import type { PipelineTest } from '../../pipeline/tests/testSpec.ts';
import { register } from '../actions/registry.ts';

/** The document's tests, replaced as a whole (record, edit, delete): one undoable step each. */
export const setTests = register<PipelineTest[]>({
  name: 'setTests',
  label: 'Edit tests',
  perform(state, tests) {
    const { tests: _old, ...rest } = state.doc;
    return { doc: tests.length ? { ...rest, tests } : rest, commitToHistory: true };
  },
});
