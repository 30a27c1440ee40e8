import { describe, expect, it } from 'vitest';
import { isCodeLimitError, loadCode, installCodeHost, inProcessCodeHost } from '../../engine/codeHost.ts';
import { overrunMessage, watchCodePort, watchedCodeHost } from './watchedCodeHost.ts';
import type { CodeOverrun, CodeWatchMessage } from './watchedCodeHost.ts';

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('the browser code watchdog', () => {
  it('reports a batch still busy after its limit, once, and nothing for batches that end in time', async () => {
    const { port1, port2 } = new MessageChannel();
    const overruns: CodeOverrun[] = [];
    let clock: (() => void) | null = null;
    const timers = { set: (cb: () => void) => (clock = cb), clear: () => (clock = null) };
    watchCodePort(port1, (m) => overruns.push(m), timers);
    const busy: CodeWatchMessage = { t: 'busy', node: 'map_1', what: 'map code', record: '{"id":1}', batch: 3, limitMs: 50, per: 'batch' };
    port2.postMessage(busy);
    port2.postMessage({ t: 'idle' });
    await tick();
    expect(clock).toBe(null);
    port2.postMessage(busy);
    await tick();
    clock!();
    expect(overruns.map((m) => m.node)).toEqual(['map_1']);
    port2.close();
  });

  it('names the node, the limit, the batch, its first record and the line the code was in', () => {
    const lines = new Int32Array([2]);
    const m: CodeOverrun = { t: 'busy', node: 'map_1', what: 'map code', record: '{"id":1}', batch: 3, limitMs: 2000, per: 'batch', source: '(row) => {\n  while (true) {}\n}', lines };
    expect(overrunMessage(m)).toBe('node "map_1": map code ran longer than the 2000 ms limit per batch (a batch of 3, first record {"id":1}), in line 2 of the code: while (true) {}; the run was stopped. Fix the code or raise settings.code.timeoutMs');
  });

  it('tells the watchdog when each batch of code starts and ends, with the limit of the run', () => {
    const said: CodeWatchMessage[] = [];
    installCodeHost(watchedCodeHost({ timeoutMs: 750, memoryMb: 256 }, (m) => said.push(m)));
    try {
      const code = loadCode({ nodeId: 'map_1', what: 'map code' }, '(row) => ({ ...row, twice: row.id * 2 })');
      expect(code.callEach('value', [{ id: 1 }, { id: 2 }])).toEqual([{ ok: true, value: { id: 1, twice: 2 } }, { ok: true, value: { id: 2, twice: 4 } }]);
    } finally {
      installCodeHost(inProcessCodeHost);
    }
    expect(said.map((m) => (m.t === 'busy' ? `busy ${m.node} ${m.batch} ${m.limitMs} ${m.record}` : m.t))).toEqual(['busy map_1 2 750 {"id":1}', 'idle']);
  });

  it('stops the run when code hands back more than the memory limit in one batch, naming the node, the size and the limit', () => {
    installCodeHost(watchedCodeHost({ timeoutMs: 2000, memoryMb: 16 }, () => undefined));
    try {
      const code = loadCode({ nodeId: 'map_1', what: 'map code' }, "(row) => ({ ...row, pad: 'x'.repeat(3 * 2 ** 20) })");
      expect(code.callEach('value', [{ id: 1 }, { id: 2 }]).map((o) => o.ok)).toEqual([true, true]);
      let thrown: unknown;
      try {
        code.callEach('value', [1, 2, 3, 4, 5, 6].map((id) => ({ id })));
      } catch (e) {
        thrown = e;
      }
      expect(isCodeLimitError(thrown), String(thrown)).toBe(true);
      expect((thrown as Error).message).toBe('node "map_1": map code returned 18.0 MB for a batch of 6 records, more than the 16 MB memory limit; the run was stopped. Fix the code (does it keep or return more than it needs?) or raise settings.code.memoryMb');
    } finally {
      installCodeHost(inProcessCodeHost);
    }
  });

  it('bounds what process code hands back as objects too: its state writes and emitted rows of one batch', () => {
    installCodeHost(watchedCodeHost({ timeoutMs: 2000, memoryMb: 16 }, () => undefined));
    try {
      const code = loadCode(
        { nodeId: 'process_1', what: 'process code' },
        "({ state: { last: { kind: 'value' } }, processElement(row, ctx) { const pad = 'x'.repeat(3 * 2 ** 20); ctx.state.last.update({ pad }); ctx.emit({ pad }); } })",
        'object',
      );
      const request = (k: number) => ({ t: 'process', m: 'processElement', row: { k }, ts: 0, kind: '+I', k, wm: 0, pt: 0, st: { last: null } });
      expect(code.invokeEach([request(1), request(2)]).map((a) => a.ops?.length)).toEqual([1, 1]);
      expect(() => code.invokeEach([1, 2, 3].map(request))).toThrow('node "process_1": process code returned 18.0 MB for a batch of 3 records, more than the 16 MB memory limit');
    } finally {
      installCodeHost(inProcessCodeHost);
    }
  });
});
