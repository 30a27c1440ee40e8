// Builds the runtime lab page into a private directory and serves it cross-origin isolated, as the
// bench page is served (bench/lib/probePage.ts): the lab is never part of the production build.
import { build } from 'vite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '../../bench/lib/server.ts';

const here = fileURLToPath(new URL('.', import.meta.url));

export async function serveLabPage(): Promise<{ url: string; close: () => Promise<void> }> {
  const outDir = mkdtempSync(join(tmpdir(), 'weir-lab-page-'));
  await build({ configFile: `${here}vite.config.ts`, logLevel: 'error', build: { outDir, emptyOutDir: true } });
  const server = await serveStatic(outDir);
  return {
    url: server.url,
    close: async () => {
      await server.close();
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}
