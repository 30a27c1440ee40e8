// Golden files pin the exact SQL of each operator mapping. After an intended change, rewrite them
// with `UPDATE_GOLDEN=1 npx vitest run src/export/flinkSql/golden.test.ts` and review the diff.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { exportFlinkSql } from './index.ts';
import { goldenCases, windowedGoldenCases } from './goldenCases.ts';

const dir = join(dirname(fileURLToPath(import.meta.url)), 'golden');
const update = process.env.UPDATE_GOLDEN === '1';

describe('Flink SQL golden files', () => {
  for (const c of [...goldenCases, ...windowedGoldenCases]) {
    it(c.name, () => {
      const { sql, warnings } = exportFlinkSql(c.doc, c.options);
      const text = `${sql}\n-- warnings:\n${warnings.map((w) => `--   ${w.nodeId ?? '(pipeline)'}: ${w.message}`).join('\n') || '--   (none)'}\n`;
      const file = join(dir, `${c.name}.sql`);
      if (update) writeFileSync(file, text);
      expect(existsSync(file), `no golden file ${c.name}.sql; create it with UPDATE_GOLDEN=1`).toBe(true);
      expect(text).toBe(readFileSync(file, 'utf8'));
    });
  }
});
