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

describe('a throw in user code names its line', () => {
  const loadWithSource = (code: string, form: 'function' | 'object' = 'function') =>
    loadInProcess({ ...site, source: code }, markLines(transpileUdf(code)), form);

  it('in a function, where the throw is, also in TypeScript and when an API the code called threw', () => {
    const code = '(row: { n: number }) => {\n  const half = row.n / 2;\n  if (half > 1) throw new Error("too big: " + half);\n  return { half };\n}';
    const out = loadWithSource(code).callEach('value', [{ n: 1 }, { n: 8 }]);
    expect(out[0]).toEqual({ ok: true, value: { half: 0.5 } });
    expect(out[1]).toEqual({ ok: false, reason: 'map code threw: too big: 4 (in line 3 of the code: if (half > 1) throw new Error("too big: " + half);)' });
    const nullRead = loadWithSource('(row) => {\n\n  return row.missing.x;\n}').callEach('value', [{}]);
    expect(nullRead[0]).toMatchObject({ ok: false, reason: expect.stringMatching(/\(in line 3 of the code: return row\.missing\.x;\)$/) });
  });

  it('in an object method called with a context, through the line of the user frame, not the driver', () => {
    const code = '({\n  state: { n: { kind: "list" } },\n  processElement(row, ctx) {\n    ctx.state.n.update(5);\n  },\n})';
    const answer = loadWithSource(code, 'object').invoke({ t: 'process', m: 'processElement', row: {}, ts: 1, kind: '+I', k: 'a', wm: 0, pt: 0, st: { n: null } });
    expect(answer.e).toBe('state "n": update(values) takes an array (in line 4 of the code: ctx.state.n.update(5);)');
  });

  it('says nothing of a line it cannot know: a thrown string has no stack', () => {
    const out = loadWithSource('(row) => { throw "nope"; }').callEach('value', [{}]);
    expect(out[0]).toEqual({ ok: false, reason: 'map code threw: nope' });
  });
});
