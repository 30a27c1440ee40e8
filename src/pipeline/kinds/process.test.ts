import { describe, expect, it } from 'vitest';
import ts from 'typescript';
import { PROCESS_CONTEXT_DTS, PROCESS_TYPECHECK_WRAPPER, processSpec } from './process.ts';

/**
 * Just enough of the standard library for these snippets. Checking against the real lib files
 * takes seconds per program; the declarations under test only need these globals.
 */
const MINI_LIB = `interface Array<T> { length: number; [n: number]: T; join(sep?: string): string; map<U>(f: (v: T, i: number) => U): U[] }
interface ReadonlyArray<T> { length: number; readonly [n: number]: T }
interface Boolean {} interface Function {} interface CallableFunction extends Function {} interface NewableFunction extends Function {}
interface IArguments {} interface Number {} interface Object {} interface RegExp {} interface String { length: number }
interface TemplateStringsArray extends ReadonlyArray<string> { readonly raw: readonly string[] }
declare function String(v?: any): string;
type Record<K extends keyof any, T> = { [P in K]: T };
type Pick<T, K extends keyof T> = { [P in K]: T[P] };
type Exclude<T, U> = T extends U ? never : T;
type Omit<T, K extends keyof any> = Pick<T, Exclude<keyof T, K>>;`;

/** Type-checks user code the way the editor does: the declarations plus the wrapped code. */
function diagnostics(code: string, options: ts.CompilerOptions = {}): string[] {
  const files: Record<string, string> = {
    '/lib.mini.d.ts': MINI_LIB,
    '/weir-process.d.ts': PROCESS_CONTEXT_DTS,
    '/user.ts': PROCESS_TYPECHECK_WRAPPER.prefix + code + PROCESS_TYPECHECK_WRAPPER.suffix,
  };
  const opts: ts.CompilerOptions = { target: ts.ScriptTarget.ES2022, noLib: true, types: [], noEmit: true, ...options };
  const host = ts.createCompilerHost(opts);
  host.fileExists = (f) => f in files;
  host.readFile = (f) => files[f];
  host.getSourceFile = (f, lang) => (f in files ? ts.createSourceFile(f, files[f], lang) : undefined);
  const program = ts.createProgram(Object.keys(files), opts, host);
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('PROCESS_CONTEXT_DTS', () => {
  it('types ctx, ctx.state.<name> from the declarations, timers and onTimer', () => {
    const code = `({
      state: {
        count: { kind: 'value', ttlMs: 1000 },
        seen: { kind: 'list' },
        byItem: { kind: 'map', ttlTime: 'event' },
        total: { kind: 'reducing', reduce: (a: number, b: number) => a + b },
        avg: { kind: 'aggregating', create: () => [0, 0], add: (acc: number[], v: number) => [acc[0] + v, acc[1] + 1], get: (acc: number[]) => acc[0] / acc[1] },
      },
      processElement(row, ctx) {
        const n = (ctx.state.count.value() ?? 0) + 1;
        ctx.state.count.update(n);
        ctx.state.seen.add(row.item);
        ctx.state.byItem.put(String(row.item), ctx.state.byItem.size());
        ctx.state.total.add(row.amount);
        ctx.state.avg.add(row.amount);
        const k: string | number | boolean | null = ctx.key;
        const kind: '+I' | '-U' | '+U' | '-D' = ctx.kind;
        ctx.timerService.registerEventTimeTimer((ctx.timestamp ?? 0) + 60000);
        ctx.timerService.registerProcessingTimeTimer(ctx.currentProcessingTime() + 1000);
        ctx.timerService.deleteEventTimeTimer(ctx.currentWatermark());
        ctx.emit({ ...row, n, k, kind });
      },
      onTimer(timestamp, ctx) {
        const t: number = ctx.timestamp + timestamp;
        const d: 'event' | 'processing' = ctx.timeDomain;
        ctx.emit({ key: ctx.key, fired: t, d, total: ctx.state.total.get() });
        ctx.state.count.clear();
      },
    })`;
    expect(diagnostics(code, { strict: true })).toEqual([]);
  });

  it('reports misuse: a method the state kind lacks, a misspelt kind, a wrong timer argument', () => {
    const errors = diagnostics(`({
      state: { count: { kind: 'value' } },
      processElement(row, ctx) {
        ctx.state.count.put('a', 1);
        ctx.timerService.registerEventTimeTimer('soon');
      },
    })`);
    expect(errors.join('\n')).toMatch(/Property 'put' does not exist on type 'ValueState<any>'/);
    expect(errors.join('\n')).toMatch(/'string' is not assignable to parameter of type 'number'/);
    expect(diagnostics("({ state: { x: { kind: 'vaule' } }, processElement() {} })").join('\n')).toMatch(/vaule/);
  });

  it('accepts the spec defaults and example as written', () => {
    expect(diagnostics(processSpec.defaults.code)).toEqual([]);
    expect(diagnostics(processSpec.example.code)).toEqual([]);
  });
});
