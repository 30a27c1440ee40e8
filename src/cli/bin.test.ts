import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { removeTempDirs, salesPipeline, tempDir, writeJson } from './cliTestKit.ts';

afterAll(removeTempDirs);

const bin = fileURLToPath(new URL('../../bin/weir.mjs', import.meta.url));

describe('bin/weir.mjs', () => {
  it('runs as a command and sets the exit code', () => {
    const dir = tempDir();
    const good = spawnSync(process.execPath, [bin, 'validate', writeJson(dir, 'p.json', salesPipeline())], { encoding: 'utf8' });
    expect(good.stderr).toBe('');
    expect(good.stdout).toBe('ok: spend per customer (4 nodes, 3 edges)\n');
    expect(good.status).toBe(0);
    const bad = spawnSync(process.execPath, [bin, 'validate', writeJson(dir, 'bad.json', { format: 'weir/pipeline', version: 1, nodes: [], edges: [] })], { encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stdout).toMatch(/bad\.json: \(document\) name: the pipeline needs a name/);
  });
});
