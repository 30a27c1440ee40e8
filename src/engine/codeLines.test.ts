import { describe, expect, it } from 'vitest';
import { lineOfCode, markLines } from './codeLines.ts';
import { loadInProcess } from './codeHost.ts';
import { transpileUdf } from '../expr/udf.ts';

const site = { nodeId: 'm', what: 'map code' };
const load = (code: string, tracker: Int32Array, form: 'function' | 'object' = 'function') => loadInProcess(site, markLines(transpileUdf(code)), form, tracker);

describe('line marks in user code', () => {
  it('leave what the code computes unchanged, for every kind of loop and function body', () => {
    const code = [
      '(row: { n: number }) => {',
      '  let s = 0;',
      '  for (let i = 0; i < row.n; i++) s += i;',
      '  outer: for (const a of [1, 2]) for (const b in { x: 1, y: 2 }) { if (b === "y") continue outer; s += a; }',
      '  let j = 0; do j++; while (j < 3);',
      '  while (j < 5) j++;',
      '  const f = (x) => (x, { x });',
      '  const g = (a) => (b) => a + b;',
      '  function h() { "use strict"; return 1; }',
      '  return { s, j, f: f(2).x, g: g(1)(2), h: h() };',
      '}',
    ].join('\n');
    const t = new Int32Array(1);
    expect(load(code, t).callEach('value', [{ n: 4 }])).toEqual([{ ok: true, value: { s: 9, j: 5, f: 2, g: 3, h: 1 } }]);
  });

  it('record the line a loop or function was last entered on, as the user wrote it', () => {
    const t = new Int32Array(1);
    const code = load('(row) => {\n  let k = 0;\n  for (let i = 0; i < 3; i++) {\n    k += i;\n  }\n  return { k };\n}', t);
    code.callEach('value', [{}]);
    expect(t[0]).toBe(3);
    const obj = load('({\n  create() { return 0; },\n  add(acc, v) {\n    return acc + v;\n  },\n  get(a) { return a; },\n})', t, 'object');
    expect(obj.invoke({ t: 'method', m: 'add', a: [1, 2] })).toEqual({ v: 3 });
    expect(t[0]).toBe(3);
  });

  it('are quoted back with the line itself', () => {
    expect(lineOfCode('(row) => {\n  while (true) {}\n}', 2)).toBe('line 2 of the code: while (true) {}');
    expect(lineOfCode('x', 0)).toBe('');
  });
});
