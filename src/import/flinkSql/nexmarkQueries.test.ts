// Queries as the Nexmark benchmark writes them for Flink (its column `dateTime`, a name dt-sql-parser's
// lexer takes for a keyword; `B.dateTime` qualified in a group window), planned and run on a few rows.
import { describe, expect, it } from 'vitest';
import { importFlinkSql } from './index.ts';
import { runPipeline } from '../../testing/runPipeline.ts';
import type { PipelineDocument } from '../../pipeline/document.ts';

const T = Date.UTC(2024, 0, 1);
const DDL = `CREATE TABLE auction (id BIGINT, itemName VARCHAR, initialBid BIGINT, dateTime TIMESTAMP(3), expires TIMESTAMP(3), seller BIGINT, category BIGINT,
  WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND) WITH ('connector' = 'filesystem', 'path' = 'auction.jsonl', 'format' = 'json');
CREATE TABLE bid (auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR, dateTime TIMESTAMP(3),
  WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND) WITH ('connector' = 'filesystem', 'path' = 'bid.jsonl', 'format' = 'json');
`;
const auctions = [
  { id: 1, itemName: 'lamp', initialBid: 5, dateTime: T, expires: T + 60_000, seller: 7, category: 10 },
  { id: 2, itemName: 'desk', initialBid: 9, dateTime: T + 1_000, expires: T + 30_000, seller: 8, category: 10 },
];
const bids = [
  { auction: 1, bidder: 100, price: 12, channel: 'apple', url: 'https://n.com/a/b/c?x=1', dateTime: T + 2_000 },
  { auction: 1, bidder: 101, price: 20, channel: 'google', url: 'https://n.com/d/e/f', dateTime: T + 5_000 },
  { auction: 2, bidder: 100, price: 15, channel: 'apple', url: 'https://n.com/g/h/i', dateTime: T + 8_000 },
  // After auction 2 expired: not a winning bid of it (q4's BETWEEN).
  { auction: 2, bidder: 102, price: 99, channel: 'baidu', url: 'https://n.com/j/k/l', dateTime: T + 40_000 },
  // Bidder 100 again, 52 s after its last bid: a second session.
  { auction: 1, bidder: 100, price: 25, channel: 'apple', url: 'https://n.com/m/n/o', dateTime: T + 60_000 },
];

function run(sql: string): Record<string, unknown[]> {
  const r = importFlinkSql(DDL + sql);
  if (!r.ok) throw new Error(r.errors.map((e) => `${e.line}:${e.column} ${e.construct}: ${e.message}`).join('\n'));
  const rows: Record<string, unknown[]> = { auction: auctions, bid: bids };
  const doc: PipelineDocument = {
    ...r.doc,
    nodes: r.doc.nodes.map((n) => (n.kind === 'fileSource' ? { ...n, kind: 'inlineSource', params: { ...(({ path: _p, ...p }) => p)(n.params as Record<string, unknown>), rows: rows[n.id] } } : n)),
  };
  const out = runPipeline(doc);
  expect(out.deadLetters).toEqual([]);
  return out.views;
}

describe('Nexmark queries as written for Flink', () => {
  it('q11: bids per bidder session, SESSION over the qualified B.dateTime', () => {
    const views = run(`CREATE TABLE nexmark_q11 (bidder BIGINT, bid_count BIGINT, starttime TIMESTAMP(3), endtime TIMESTAMP(3)) WITH ('connector' = 'blackhole');
INSERT INTO nexmark_q11 SELECT B.bidder, count(*) as bid_count, SESSION_START(B.dateTime, INTERVAL '10' SECOND) as starttime, SESSION_END(B.dateTime, INTERVAL '10' SECOND) as endtime
FROM bid B GROUP BY B.bidder, SESSION(B.dateTime, INTERVAL '10' SECOND);`);
    const key = (r: Record<string, unknown>) => `${r.bidder}@${r.starttime}`;
    expect([...(views.nexmark_q11 as Record<string, unknown>[])].sort((a, b) => key(a).localeCompare(key(b)))).toEqual([
      { bidder: 100, bid_count: 2, starttime: T + 2_000, endtime: T + 18_000 },
      { bidder: 100, bid_count: 1, starttime: T + 60_000, endtime: T + 70_000 },
      { bidder: 101, bid_count: 1, starttime: T + 5_000, endtime: T + 15_000 },
      { bidder: 102, bid_count: 1, starttime: T + 40_000, endtime: T + 50_000 },
    ]);
  });

  it('q4: the average winning bid per category, bids BETWEEN the auction\'s dateTime and expires', () => {
    const views = run(`CREATE TABLE nexmark_q4 (id BIGINT, final BIGINT) WITH ('connector' = 'blackhole');
INSERT INTO nexmark_q4 SELECT Q.category, AVG(Q.final) FROM (
  SELECT MAX(B.price) AS final, A.category FROM auction A, bid B WHERE A.id = B.auction AND B.dateTime BETWEEN A.dateTime AND A.expires GROUP BY A.id, A.category
) Q GROUP BY Q.category;`);
    // Winning bids: auction 1 → 25, auction 2 → 15 (the 99 came after it expired).
    expect(views.nexmark_q4).toEqual([{ id: 10, final: 20 }]);
  });

  it('q22: the url split into directories with SPLIT_INDEX', () => {
    const views = run(`CREATE TABLE nexmark_q22 (auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, dir1 VARCHAR, dir2 VARCHAR, dir3 VARCHAR) WITH ('connector' = 'blackhole');
INSERT INTO nexmark_q22 SELECT auction, bidder, price, channel, SPLIT_INDEX(url, '/', 3) as dir1, SPLIT_INDEX(url, '/', 4) as dir2, SPLIT_INDEX(url, '/', 5) as dir3 FROM bid;`);
    expect((views.nexmark_q22 as Record<string, unknown>[]).map((r) => [r.dir1, r.dir2, r.dir3]).sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
      ['a', 'b', 'c?x=1'],
      ['d', 'e', 'f'],
      ['g', 'h', 'i'],
      ['j', 'k', 'l'],
      ['m', 'n', 'o'],
    ]);
  });
});
