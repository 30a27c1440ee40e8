import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

// The bench page is its own small app: `vite build --config bench/vite.config.ts` → bench/dist.
const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: `${here}page`,
  base: './',
  logLevel: 'warn',
  worker: { format: 'es' },
  build: { outDir: `${here}dist`, emptyOutDir: true, target: 'es2022', minify: false, sourcemap: true, chunkSizeWarningLimit: 8000 },
});
