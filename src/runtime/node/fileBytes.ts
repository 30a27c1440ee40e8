import { closeSync, openSync, readSync, statSync } from 'node:fs';
import type { ByteInput, ByteSource, FileInput } from '../../core/lineSource.ts';

/**
 * A regular file as random-access bytes, read in blocks by StreamedLines; each block is read with
 * its own open, so no descriptor outlives a read. `size`, when given, bounds what is read (the
 * length counted when the run started); otherwise it is the size now. Throws the fs error of an
 * unreadable file at once, before the run starts.
 */
export function fileBytes(file: string, size?: number): ByteSource {
  const now = statSync(file).size;
  closeSync(openSync(file, 'r'));
  const length = size === undefined ? now : Math.min(size, now);
  return {
    size: length,
    read(start, end) {
      const len = Math.max(0, Math.min(end, length) - start);
      const buf = Buffer.allocUnsafe(len);
      let at = 0;
      let fd: number;
      try {
        fd = openSync(file, 'r');
      } catch (e) {
        throw new Error(`${file} can no longer be read (${(e as Error).message}): it changed or was removed during the run`);
      }
      try {
        while (at < len) {
          const n = readSync(fd, buf, at, len - at, start + at);
          if (n === 0) break;
          at += n;
        }
      } finally {
        closeSync(fd);
      }
      return buf.subarray(0, at);
    },
  };
}

/** Opens a file input on the thread whose source reads it. */
export function openFileInput(input: FileInput): ByteInput {
  try {
    return { name: input.name, bytes: fileBytes(input.path, input.size) };
  } catch (e) {
    throw new Error(`${input.path} can no longer be read (${(e as Error).message}): it changed or was removed during the run`);
  }
}
