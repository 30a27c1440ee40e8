import { afterEach, describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { ObservationFrame } from '../../runtime/observe/types.ts';
import type { RunSnapshot } from '../../worker/protocol.ts';
import { runStore } from '../run/runStore.ts';
import { editorStore, emptyDocument } from '../store/editorStore.ts';
import { joinFrame, stateFrame, windowFrame } from './fixtures.ts';
import { observeStore } from './observeStore.ts';
import { StatePanel } from './StatePanel.tsx';
import { JoinPanel } from './JoinPanel.tsx';
import { WindowsPanel } from './WindowsPanel.tsx';
import { CheckpointsPanel } from './CheckpointsPanel.tsx';
import { TracePanel } from './TracePanel.tsx';
import { QueryPanel } from './QueryPanel.tsx';
import { NodeLive } from './NodeLive.tsx';
import { BarrierMarks } from './BarrierMarks.tsx';
import { checkpointKey } from './checkpointLogic.ts';

// Renders each panel to HTML against hand-made frames: what a learner would read, without a browser.
const snapshot = (frame: ObservationFrame): RunSnapshot => ({ status: 'paused', records: 3, rate: 0, clockMs: frame.at, metrics: {}, deadLetters: {}, sinks: {}, log: [], checkpoints: 2, error: null, restarts: 0, frame });

function show(frame: ObservationFrame | null, selected: string | null, statefulNodes = true) {
  runStore.set((s) => ({ ...s, snapshot: frame ? snapshot(frame) : null, frame }));
  const kinds: Record<string, string> = { orders: 'map', join: 'join', count: 'aggregate', win: 'window', view: 'viewSink' };
  const ids = statefulNodes ? Object.keys(kinds) : ['orders'];
  const doc = { ...emptyDocument(), nodes: ids.map((id) => ({ id, kind: kinds[id], params: id === 'view' ? { primaryKey: ['order_id'] } : {}, position: { x: 0, y: 0 } })) };
  editorStore.set((s) => ({ ...s, doc, selection: { nodes: selected ? [selected] : [], edges: [] } }));
}
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

afterEach(() => show(null, null));

describe('observatory panels', () => {
  it('state: one row per key, the changed one flashing, sizes per subtask with key groups', () => {
    show(stateFrame, 'count');
    // The size header reads the node observation of the selected node.
    runStore.set((s) => ({ ...s, frame: { ...stateFrame, nodes: [{ ...stateFrame.nodes[0], node: 'count' }] } }));
    const html = renderToStaticMarkup(<StatePanel />);
    expect(text(html)).toContain('alice');
    expect(text(html)).toContain('carol');
    expect(html.match(/obs-flash-/g)?.length).toBe(1);
    expect(text(html)).toContain('key groups 64–127');
    expect(text(html)).toMatch(/3 keys · 2\.0 KiB/);
    expect(html).toContain('[7000, 9000]'); // the list state shows inline and expands
    expect(html).toContain('obs-value-more');
  });

  it('state: asks to select a node, then says when the node has no state', () => {
    show(stateFrame, null, false);
    expect(text(renderToStaticMarkup(<StatePanel />))).toContain('This pipeline has no stateful operator yet');
    // Nothing selected: the tab shows the first node that fits it rather than nothing.
    show(stateFrame, 'orders');
    expect(text(renderToStaticMarkup(<StatePanel />))).toContain('join');
    show({ ...stateFrame, state: null }, 'count');
    expect(text(renderToStaticMarkup(<StatePanel />))).toContain('count keeps no keyed state');
  });

  it('join: both buffers, the waiting order, and the padded row then its retraction', () => {
    show(joinFrame, 'join');
    const html = renderToStaticMarkup(<JoinPanel />);
    const t = text(html);
    expect(t).toContain('Left buffer 2');
    expect(t).toContain('Right buffer 1');
    expect(html).toContain('obs-waiting');
    expect(t).toContain('evicted by watermark: 0 · by TTL: 2');
    expect(html.match(/class="obs-match kind-del padded"/g)?.length).toBe(1);
    expect(t).toContain('order_id=1 amount=12 paid=12');
  });

  it('windows: panes by status, the watermark line, late output and merges', () => {
    show(windowFrame, 'win');
    const html = renderToStaticMarkup(<WindowsPanel />);
    expect(html).toContain('data-status="fired"');
    expect(html).toContain('data-status="pending"');
    expect(html).toContain('data-status="purged"');
    expect(html).toContain('obs-wm-line');
    expect(text(html)).toContain('Late records: 1');
    expect(text(html)).toContain('city=paris amount=3 ts=4000');
    expect(text(html)).toContain('lyon: [20000, 25000) + [24000, 30000) → [20000, 30000)');
    expect(html.match(/obs-dot-late/g)?.length).toBe(1);
  });

  it('windows: once the input has ended the watermark reads "end" and its marker sits at the end of the axis', () => {
    show({ ...windowFrame, window: { ...windowFrame.window!, watermark: null, watermarkEnded: true } }, 'win');
    const html = renderToStaticMarkup(<WindowsPanel />);
    expect(text(html)).toContain('watermark end');
    expect(text(html)).not.toContain('watermark —');
    expect(html).toContain('data-watermark="end"');
    expect(html).toContain('obs-wm-off');
  });

  it('checkpoints: every checkpoint with status, sizes, and why one aborted', () => {
    show(joinFrame, null);
    const t = text(renderToStaticMarkup(<CheckpointsPanel />));
    expect(t).toContain('Checkpoints: 2 completed of 3'); // the run status counts completed ones too
    expect(t).toContain('checkpoint 4 in flight');
    expect(t).toContain('Aborted: subtask join#1 failed');
    expect(t).toMatch(/#3 completed .*120 ms 2\.0 KiB \+600 B/);
  });

  it('no two children share a key: checkpoint ids produced again after a restore, one barrier on several channels', () => {
    const again = joinFrame.checkpoints.map((c) => ({ ...c, triggeredAt: c.triggeredAt + 50_000 }));
    const all = [...joinFrame.checkpoints, ...again];
    expect(new Set(all.map(checkpointKey)).size).toBe(all.length);
    show({ ...joinFrame, checkpoints: all }, null);
    expect(text(renderToStaticMarkup(<CheckpointsPanel />))).toContain('Checkpoints: 4 completed of 6');
    const marks = renderToStaticMarkup(<svg><BarrierMarks path="M0,0 L100,0" from={[0, 0]} to={[100, 0]} barriers={[{ checkpointId: 3, progress: 0.2 }, { checkpointId: 3, progress: 0.9 }]} /></svg>);
    expect(marks.match(/data-checkpoint="3"/g)?.length).toBe(2);
  });

  it('trace: hops with emitted changelog rows, and the breakpoint hit', () => {
    show(joinFrame, null);
    const t = text(renderToStaticMarkup(<TracePanel />));
    expect(t).toContain('Paused at breakpoint on join:');
    expect(t).toMatch(/#8 payments order_id=1 paid=12 → join#0 state changed -D order_id=1 amount=12 paid=NULL \+I order_id=1 amount=12 paid=12/);
  });

  it('query: pull result and pushed changelog for the chosen view', () => {
    show(joinFrame, null);
    observeStore.set((r) => ({ ...r, query: { sink: 'view', key: { order_id: 1 }, push: false } }));
    expect(text(renderToStaticMarkup(<QueryPanel />))).toContain('order_id=1 amount=12 paid=12');
    observeStore.set((r) => ({ ...r, query: { sink: 'view', key: null, push: true } }));
    const html = renderToStaticMarkup(<QueryPanel />);
    expect(html.match(/obs-change kind-/g)?.length).toBe(3);
    expect(html).toContain('obs-change kind-del');
    observeStore.set((r) => ({ ...r, query: null }));
  });

  it('node badges: key count and size, alignment, snapshot timings', () => {
    show(joinFrame, null);
    const t = text(renderToStaticMarkup(<NodeLive id="join" />));
    expect(t).toContain('3 keys · 2.0 KiB');
    expect(t).toContain('aligning for checkpoint 3: left blocked, 4 buffered');
    expect(t).toContain('sync 1.2 ms · async 8.0 ms');
    expect(renderToStaticMarkup(<NodeLive id="nope" />)).toBe('');
    // A sink's state is its table: rows, as Results counts them, not "keys".
    expect(text(renderToStaticMarkup(<NodeLive id="join" sink />))).toContain('3 rows · 2.0 KiB');
  });
});
