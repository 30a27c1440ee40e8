// The real designer app for the ui suite: `vite build` with the app's own vite.config.ts, served by
// `vite preview` (the same COOP/COEP headers as e2e's preview). It builds into a temporary directory
// so a concurrently served dist/ (e2e) is never overwritten.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, preview } from 'vite';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** `minify: false` keeps function names readable in CPU profiles. */
/** `root`: another checkout of the app (bench/profile/uiCostAb.ts builds the code before a change from a copy). */
export async function buildAndServeApp(opts: { minify?: boolean; root?: string } = {}): Promise<{ url: string; close: () => Promise<void> }> {
  const root = opts.root ?? repoRoot;
  const outDir = mkdtempSync(join(tmpdir(), 'weir-bench-app-'));
  const configFile = join(root, 'vite.config.ts');
  await build({ root, configFile, logLevel: 'error', build: { outDir, emptyOutDir: true, ...(opts.minify === false ? { minify: false } : {}) } });
  const server = await preview({ root, configFile, logLevel: 'error', build: { outDir }, preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false } });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('vite preview gave no local URL for the built app');
  return {
    url,
    close: async () => {
      await server.close();
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}
