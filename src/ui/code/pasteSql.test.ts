import { describe, expect, it } from 'vitest';
import { looksLikeFlinkSql } from './pasteSql.ts';

describe('looksLikeFlinkSql', () => {
  it('knows a script by its first statement, after comments', () => {
    expect(looksLikeFlinkSql('CREATE TABLE t (a INT) WITH (...);')).toBe(true);
    expect(looksLikeFlinkSql('-- sales\n/* note */\n  insert into s select * from t')).toBe(true);
    expect(looksLikeFlinkSql('CREATE TEMPORARY VIEW v AS SELECT 1')).toBe(true);
    expect(looksLikeFlinkSql('SET \'parallelism.default\' = \'1\';')).toBe(true);
  });
  it('leaves other text alone', () => {
    expect(looksLikeFlinkSql('{"nodes": []}')).toBe(false);
    expect(looksLikeFlinkSql('selection of words')).toBe(false);
    expect(looksLikeFlinkSql('store_id,total\ns1,3')).toBe(false);
  });
});
