/** Flink's hash built-ins: the hex digest of the string's UTF-8 bytes; NULL in, NULL out. */
import type { FunctionDef } from './functionKit.ts';
import { always, str1 } from './functionKit.ts';
import { md5, sha1, sha256, sha512 } from './hashes.ts';
import { toNum, toStr } from './values.ts';

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const digest = (f: (b: Uint8Array) => string): FunctionDef => ({ min: 1, max: 1, compile: str1((s) => f(utf8(s))), type: always('string') });

const SHA2: Readonly<Record<number, (b: Uint8Array) => string>> = {
  224: (b) => sha256(b, true),
  256: (b) => sha256(b),
  384: (b) => sha512(b, true),
  512: (b) => sha512(b),
};

export const HASH_FUNCTIONS: Readonly<Record<string, FunctionDef>> = {
  MD5: digest(md5),
  SHA1: digest(sha1),
  SHA224: digest((b) => sha256(b, true)),
  SHA256: digest((b) => sha256(b)),
  SHA384: digest((b) => sha512(b, true)),
  SHA512: digest((b) => sha512(b)),
  // SHA2(s, bits): bits is 224, 256, 384 or 512; any other length is NULL.
  SHA2: {
    min: 2,
    max: 2,
    compile: ([a, n]) => (row) => {
      const s = toStr(a(row));
      if (s === null) return null;
      const bits = toNum(n(row));
      const f = bits === null ? undefined : SHA2[bits];
      return f ? f(utf8(s)) : null;
    },
    type: always('string'),
  },
};
