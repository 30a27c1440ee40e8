// The gallery's SQL examples are what the planner makes of their scripts (with the oracle data inline).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importFlinkSql } from '../../import/flinkSql/index.ts';
import { withInlineData } from './cases.ts';
import { GALLERY_SCRIPTS } from './gallery.ts';

// The examples' saved tests are written beside the planned document, not planned from the script.
const strip = <D extends { nodes: { position?: unknown }[]; tests?: unknown }>({ tests: _t, ...doc }: D) => ({ ...doc, nodes: doc.nodes.map(({ position: _p, ...n }) => n) });

describe('gallery examples written in Flink SQL', () => {
  for (const g of GALLERY_SCRIPTS) {
    it(`${g.file} is the planned script`, () => {
      const r = importFlinkSql(g.sql, g.name);
      expect(r.ok).toBe(true);
      if (!r.ok) return;
      const file = JSON.parse(readFileSync(join(import.meta.dirname, '../../../public/examples', g.file), 'utf8'));
      expect(strip(file)).toEqual(strip({ ...withInlineData(r.doc), description: g.description }));
    });
  }
});
