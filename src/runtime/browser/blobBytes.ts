import type { ByteInput, ByteSource } from '../../core/lineSource.ts';

interface SyncBlobReader {
  readAsArrayBuffer(blob: Blob): ArrayBuffer;
}

/**
 * A Blob as random-access bytes: each block is a `slice` read with FileReaderSync, which only
 * dedicated workers have (the engine runs in one), so a large file is never read whole.
 */
export function blobBytes(blob: Blob, name: string): ByteSource {
  const Reader = (globalThis as { FileReaderSync?: new () => SyncBlobReader }).FileReaderSync;
  if (!Reader) throw new Error(`file "${name}" can only be read in a worker (FileReaderSync is missing here)`);
  const reader = new Reader();
  return {
    size: blob.size,
    read(start, end) {
      try {
        return new Uint8Array(reader.readAsArrayBuffer(blob.slice(start, Math.min(end, blob.size))));
      } catch (e) {
        // The file changed or was removed on disk after it was picked: say so rather than read garbage.
        throw new Error(`file "${name}" can no longer be read (${(e as Error).message}); drop or pick it again`);
      }
    },
  };
}

/** A file the person gave, opened in the worker that reads it (the Blob crossed by reference). */
export const blobInput = (f: { name: string; blob: Blob }): ByteInput => ({ name: f.name, bytes: blobBytes(f.blob, f.name) });

/** The inputs of a run's file sources, by node id. */
export function fileInputs(files: Record<string, { name: string; blob: Blob }> | undefined): Record<string, ByteInput> | undefined {
  if (!files) return undefined;
  return Object.fromEntries(Object.entries(files).map(([id, f]) => [id, blobInput(f)]));
}
