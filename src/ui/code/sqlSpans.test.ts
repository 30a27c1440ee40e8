import { describe, expect, it } from 'vitest';
import { spanAt } from './sqlSpans.ts';

describe('spanAt', () => {
  const spans = {
    view: { line: 3, column: 1, endLine: 8, endColumn: 2 },
    inner: { line: 5, column: 10, endLine: 6, endColumn: 20 },
    sink: { line: 10, column: 1, endLine: 10, endColumn: 30 },
  };
  it('finds the innermost span at a position', () => {
    expect(spanAt(spans, 5, 12)).toBe('inner');
    expect(spanAt(spans, 4, 1)).toBe('view');
    expect(spanAt(spans, 10, 30)).toBe('sink');
  });
  it('is null outside every span', () => {
    expect(spanAt(spans, 9, 1)).toBeNull();
    expect(spanAt(spans, 10, 31)).toBeNull();
  });
});
