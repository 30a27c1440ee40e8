import { Worker } from 'node:worker_threads';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import type { Spawn } from '../threaded/spawn.ts';

const entry = new URL('./workerEntry.ts', import.meta.url);
const tsxBoot = new URL('./tsWorkerBoot.mjs', import.meta.url);
const cacheDir = new URL('../../../node_modules/.cache/weir', import.meta.url);

let bundled: Promise<URL | null> | null = null;

/**
 * The worker script. Loading the engine's TypeScript through tsx in every worker took 2.5–4 s
 * per worker on this 2-vCPU machine, so the entry is bundled once per process with esbuild
 * (tsx's own compiler) into node_modules/.cache/weir, and workers load one plain module in
 * ~0.1 s. Without esbuild (or with WEIR_WORKER_TSX=1), workers register tsx themselves (tsWorkerBoot.mjs).
 */
function workerScript(): Promise<URL | null> {
  bundled ??= (async () => {
    if (process.env.WEIR_WORKER_TSX === '1') return null;
    try {
      const esbuild = await import('esbuild');
      const out = await esbuild.build({ entryPoints: [fileURLToPath(entry)], bundle: true, format: 'esm', platform: 'node', target: 'node20', packages: 'external', write: false, logLevel: 'silent' });
      const code = out.outputFiles[0].contents;
      const file = new URL(`worker-${createHash('sha1').update(code).digest('hex').slice(0, 16)}.mjs`, cacheDir);
      if (!existsSync(file)) {
        mkdirSync(cacheDir, { recursive: true });
        const tmp = `${fileURLToPath(file)}.${process.pid}.tmp`;
        writeFileSync(tmp, code);
        renameSync(tmp, file);
        pruneOldBundles();
      }
      return file;
    } catch {
      return null;
    }
  })();
  return bundled;
}

/** Bundles of older sources pile up while developing; a day-old one is no longer in use. */
function pruneOldBundles(): void {
  const dir = fileURLToPath(cacheDir);
  for (const f of readdirSync(dir)) {
    const path = join(dir, f);
    if (/^worker-[0-9a-f]+\.mjs$/.test(f) && Date.now() - statSync(path).mtimeMs > 86_400_000) rmSync(path, { force: true });
  }
}

/** Starts each worker as a Node worker_threads Worker running workerEntry.ts. */
export async function nodeSpawn(): Promise<Spawn> {
  const script = await workerScript();
  return (index) => {
    const worker = script
      ? new Worker(script, { name: `weir-worker-${index}` })
      : new Worker(tsxBoot, { workerData: { entry: pathToFileURL(fileURLToPath(entry)).href }, name: `weir-worker-${index}` });
    let terminated = false;
    const listeners: ((reason: string) => void)[] = [];
    let early: string | null = null;
    const report = (reason: string) => {
      if (terminated) return;
      terminated = true;
      early = reason;
      for (const cb of listeners) cb(reason);
    };
    worker.on('error', (e) => report(e.message || String(e)));
    worker.on('exit', (code) => report(`exited with code ${code}`));
    return {
      endpoint: nodeEndpoint(worker),
      terminate() {
        terminated = true;
        void worker.terminate();
      },
      onFailure(cb) {
        listeners.push(cb);
        if (early) cb(early);
      },
    };
  };
}
