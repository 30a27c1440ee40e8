// `npx weir` inside this repository needs the project's own bin on node_modules/.bin;
// npm links dependencies' bins there but never the root package's own.
import { existsSync, mkdirSync, symlinkSync, unlinkSync, lstatSync, chmodSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const binDir = join(root, 'node_modules', '.bin');
const target = join(root, 'bin', 'weir.mjs');
const link = join(binDir, 'weir');
if (existsSync(join(root, 'node_modules'))) {
  mkdirSync(binDir, { recursive: true });
  try { if (lstatSync(link)) unlinkSync(link); } catch { /* no old link */ }
  symlinkSync(relative(binDir, target), link);
  chmodSync(target, 0o755);
}
