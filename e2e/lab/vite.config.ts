import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

// The runtime lab is a test page of its own, built apart from the designer: `vite build --config e2e/lab/vite.config.ts`.
const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: './',
  logLevel: 'warn',
  worker: { format: 'es' },
  build: { target: 'es2022', minify: false, sourcemap: true, chunkSizeWarningLimit: 8000 },
});
