// Every example pipeline and every golden case exports to SQL that dt-sql-parser's FlinkSQL
// validator accepts without errors, and whose names all resolve against the pipeline's schemas.
import { describe, expect, it } from 'vitest';
import { FlinkSQL } from 'dt-sql-parser';
import { loadExamples } from '../../testing/examples.ts';
import { compile } from '../../pipeline/compile.ts';
import { exportFlinkSql } from './index.ts';
import { goldenCases, windowedGoldenCases } from './goldenCases.ts';
import { checkExportedSql } from './verify/semanticCheck.ts';

const examples = loadExamples().map(({ entry, doc }) => ({ name: entry.file, doc, options: undefined }));

function exportAndCheck(doc: unknown, options?: Parameters<typeof exportFlinkSql>[1]) {
  const { plan } = compile(doc);
  const result = exportFlinkSql(doc, options);
  return { result, check: checkExportedSql(result.sql, plan!, result.warnings) };
}

describe('exported Flink SQL parses and resolves', () => {
  it('the validator itself rejects what Flink would reject', () => {
    expect(new FlinkSQL().validate('SELECT FROM WHERE;').length).toBeGreaterThan(0);
  });

  for (const c of [...examples, ...goldenCases, ...windowedGoldenCases]) {
    it(c.name, () => {
      const { check } = exportAndCheck(c.doc, c.options);
      expect(check.syntaxErrors).toEqual([]);
      expect(check.problems).toEqual([]);
    });
  }

  it('the bronze → silver → gold example is one statement set with a view per intermediate step', () => {
    const medallion = examples.find((e) => e.name === 'medallion.json')!;
    const { sql } = exportFlinkSql(medallion.doc);
    expect(sql.match(/EXECUTE STATEMENT SET/g)).toHaveLength(1);
    for (const view of ['valid', 'clean', 'unique', 'revenue']) expect(sql).toContain(`CREATE TEMPORARY VIEW \`${view}\` AS`);
    for (const sink of ['bronze', 'silver', 'gold']) expect(sql).toContain(`INSERT INTO \`${sink}\``);
  });
});

describe('the semantic check catches broken names', () => {
  const base = goldenCases.find((c) => c.name === 'join-ttl')!;
  const { plan } = compile(base.doc);
  const { sql, warnings } = exportFlinkSql(base.doc);
  const check = (text: string) => checkExportedSql(text, plan!, warnings);

  it('an unknown column', () => {
    const broken = sql.replace('r.`tier`', 'r.`tiers`');
    expect(check(broken).problems.join('\n')).toMatch(/`r`\.`tiers`.*no such column/);
  });
  it('an unknown table', () => {
    const broken = sql.replace('FROM `orders` AS l', 'FROM `order` AS l');
    expect(check(broken).problems.join('\n')).toMatch(/`order` is not defined/);
  });
  it('an unqualified column no table has', () => {
    const broken = sql.replace('SELECT `order_id`, `customer_id`, `amount`, `status`, `ts`, `customer_id_right`', 'SELECT `order_idx`, `customer_id`, `amount`, `status`, `ts`, `customer_id_right`');
    expect(check(broken).problems.join('\n')).toMatch(/column `order_idx` is in none/);
  });
  it('a view whose columns differ from the pipeline', () => {
    const broken = sql.replace('r.`name`,', 'r.`name` AS `full_name`,');
    expect(check(broken).problems.join('\n')).toMatch(/`enriched` has columns .*full_name.* but the pipeline infers/);
  });
  it('a node left out without a warning', () => {
    const broken = sql.replace(/CREATE TEMPORARY VIEW `enriched` AS[^;]*;/, '');
    expect(check(broken).problems.join('\n')).toMatch(/`enriched` \(join\) has no table or view/);
  });
});
