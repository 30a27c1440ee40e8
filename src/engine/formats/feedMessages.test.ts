import { describe, expect, it } from 'vitest';
import { FeedDecoder } from './feedMessages.ts';
import { parseJsonPath } from '../../core/jsonPath.ts';

describe('FeedDecoder', () => {
  it('reads a JSON object, an array, or the records at a JSON path, numbering each by its message', () => {
    const d = new FeedDecoder({ format: 'json', path: '$.data.items' });
    expect(d.decode('{"data":{"items":[{"a":1},{"a":2}]}}', 7)).toEqual([
      { value: { a: 1 }, raw: '{"data":{"items":[{"a":1},{"a":2}]}}', line: 7 },
      { value: { a: 2 }, raw: '{"data":{"items":[{"a":1},{"a":2}]}}', line: 7 },
    ]);
    expect(new FeedDecoder({ format: 'json' }).decode('{"a":1}', 1)).toEqual([{ value: { a: 1 }, raw: '{"a":1}', line: 1 }]);
    expect(d.decode('{"data":{}}', 8)[0].error).toBe('message 8: the JSON path has nothing at $.data.items');
    expect(d.decode('{"data"', 9)[0].error).toMatch(/^message 9: not valid JSON/);
  });

  it('insists on an array for jsonArray, reads ndjson line by line and csv by declared columns and types', () => {
    expect(new FeedDecoder({ format: 'jsonArray' }).decode('{"a":1}', 3)[0].error).toBe('message 3: expected a JSON array of records, got object');
    const nd = new FeedDecoder({ format: 'ndjson' }).decode('{"a":1}\n\n{"a":2}\r\nnope', 4);
    expect(nd.map((r) => r.value ?? r.error?.slice(0, 25))).toEqual([{ a: 1 }, { a: 2 }, 'message 4: not valid JSON']);
    const csv = new FeedDecoder({ format: 'csv', columns: ['sym', 'px', 'up'], schema: { sym: 'string', px: 'number', up: 'boolean' } });
    expect(csv.decode('ABC,1.5,true\n"D,E",,false', 5).map((r) => r.value)).toEqual([
      { sym: 'ABC', px: 1.5, up: true },
      { sym: 'D,E', px: null, up: false },
    ]);
    expect(csv.decode('ABC,1.5', 6)[0].error).toBe('message 6: expected 3 fields (sym, px, up), got 2');
  });

  it('parses JSON paths and says where one cannot be read', () => {
    expect(parseJsonPath('$.a.b[2]["c d"]')).toEqual(['a', 'b', 2, 'c d']);
    expect(parseJsonPath('$')).toEqual([]);
    expect(parseJsonPath('a.b')).toMatch(/must start with \$/);
    expect(parseJsonPath('$.a..b')).toMatch(/cannot be read at "\.\.b"/);
  });
});
