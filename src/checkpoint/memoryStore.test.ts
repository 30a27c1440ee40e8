import { MemoryCheckpointStore } from './memoryStore.ts';
import { checkpointStoreSuite } from './storeBehaviour.suite.ts';

checkpointStoreSuite('MemoryCheckpointStore', async () => new MemoryCheckpointStore());
