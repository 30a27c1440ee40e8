import type { PipelineDocument } from '../../pipeline/document.ts';
import { readDocument } from './fileIO.ts';
import { STARTER_EXAMPLE } from './starterExample.ts';

export interface ExampleEntry {
  file: string;
  title: string;
  description: string;
}

export interface LoadedExample extends ExampleEntry {
  doc: PipelineDocument | null;
  error?: string;
}

const base = `${import.meta.env.BASE_URL}examples/`;

// Used only while public/examples/index.json does not exist yet.
const FALLBACK_FILES = ['orders-payments.json', 'word-count.json', 'clickstream-sessions.json', 'fraud-detection.json'];

async function fetchJson(url: string): Promise<unknown | null> {
  try {
    const res = await fetch(url);
    if (!res.ok || !(res.headers.get('content-type') ?? '').includes('json')) return null;
    return await res.json();
  } catch {
    return null;
  }
}

export async function exampleIndex(): Promise<ExampleEntry[]> {
  const idx = await fetchJson(`${base}index.json`);
  if (Array.isArray(idx)) return idx.filter((e): e is ExampleEntry => !!e && typeof e.file === 'string').map((e) => ({ file: e.file, title: e.title ?? e.file, description: e.description ?? '' }));
  const found: ExampleEntry[] = [];
  for (const f of FALLBACK_FILES) {
    const doc = (await fetchJson(base + f)) as { name?: string; description?: string } | null;
    if (doc) found.push({ file: f, title: doc.name ?? f, description: doc.description ?? '' });
  }
  return found;
}

let cache: Promise<LoadedExample[]> | null = null;

/** Every example with its document; the built-in starter when the folder is empty. */
export function loadExamples(): Promise<LoadedExample[]> {
  cache ??= exampleIndex().then(async (entries) => {
    const loaded = await Promise.all(
      entries.map(async (e) => {
        try {
          const res = await fetch(base + e.file);
          const r = readDocument(await res.text());
          return r.ok ? { ...e, doc: r.doc } : { ...e, doc: null, error: r.message };
        } catch (err) {
          return { ...e, doc: null, error: (err as Error).message };
        }
      }),
    );
    return loaded.length ? loaded : [{ file: '(built in)', title: STARTER_EXAMPLE.name, description: STARTER_EXAMPLE.description ?? '', doc: STARTER_EXAMPLE }];
  });
  return cache;
}
