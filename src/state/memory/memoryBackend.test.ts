import { MemoryStateBackend } from './memoryBackend.ts';
import { keyedStateBackendSuite } from '../backendBehaviour.suite.ts';

keyedStateBackendSuite('MemoryStateBackend', {
  make: async (time) => new MemoryStateBackend(time),
  touch: async () => {},
  transfer: async (from, into, owns) => into.restore([from.snapshot()], owns),
});
