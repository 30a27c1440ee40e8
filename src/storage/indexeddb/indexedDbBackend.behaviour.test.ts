import { keyedStateBackendSuite } from '../../state/backendBehaviour.suite.ts';
import { idbTarget } from './testkit.ts';

keyedStateBackendSuite('IndexedDbStateBackend', idbTarget());
// A budget of a few cells: nearly every key is evicted between steps and prefetched back.
keyedStateBackendSuite('IndexedDbStateBackend, 300-byte budget', idbTarget(300));
keyedStateBackendSuite('IndexedDbStateBackend, 300-byte budget, copy-on-write checkpoints', idbTarget(300, { syncPersistKeys: 0 }));
