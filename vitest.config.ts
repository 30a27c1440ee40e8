import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'bench/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'bench/.ab/**', 'dist/**'],
    environment: 'node',
    testTimeout: 60_000,
    pool: 'threads',
  },
});
