// Installs fake-indexeddb's IndexedDB (indexedDB, IDBRequest, IDBKeyRange...) as globals of this thread.
import 'fake-indexeddb/auto';
