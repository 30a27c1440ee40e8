// The runtime lab page built into a private directory and served cross-origin isolated, as the
// bench page is: the lab is never part of the production build.
import { fileURLToPath } from 'node:url';
import { serveBuiltPage } from '../../bench/lib/probePage.ts';

export function serveLabPage(): Promise<{ url: string; close: () => Promise<void> }> {
  return serveBuiltPage(fileURLToPath(new URL('./vite.config.ts', import.meta.url)), 'weir-lab-page-');
}
