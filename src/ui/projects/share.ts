import { deflateSync, inflateSync, strFromU8, strToU8 } from 'fflate';
import type { PipelineDocument } from '../../pipeline/document.ts';

const toBase64Url = (bytes: Uint8Array): string => {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

const fromBase64Url = (text: string): Uint8Array => {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((text.length + 3) % 4);
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
};

export const SHARE_PREFIX = '#doc=';

/** The document, deflated and base64url-encoded, for the URL hash: no server involved. */
export function encodeShare(doc: PipelineDocument): string {
  return toBase64Url(deflateSync(strToU8(JSON.stringify(doc)), { level: 9 }));
}

/** The JSON text inside a share fragment; throws with a readable message when it is damaged. */
export function decodeShare(fragment: string): string {
  try {
    return strFromU8(inflateSync(fromBase64Url(fragment)));
  } catch {
    throw new Error('the link is damaged or incomplete: its pipeline could not be unpacked');
  }
}

export function shareUrl(doc: PipelineDocument): string {
  return `${location.origin}${location.pathname}${SHARE_PREFIX}${encodeShare(doc)}`;
}
