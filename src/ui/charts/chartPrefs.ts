import { createStore } from '../store/createStore.ts';
import type { ChartSpec } from './seriesModel.ts';

export type ResultMode = 'table' | 'chart' | 'changelog';

/** Per sink id: how its result is shown and, once chosen, how its chart is drawn. Kept across reloads. */
export interface SinkView {
  mode: ResultMode;
  spec?: ChartSpec;
}

const KEY = 'weir.resultViews';

const load = (): Record<string, SinkView> => {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? '{}') as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? Object.assign(Object.create(null) as Record<string, SinkView>, v) : {};
  } catch {
    return {};
  }
};

export const chartPrefs = createStore<Record<string, SinkView>>(load());

export function setSinkView(sinkId: string, patch: Partial<SinkView>): void {
  chartPrefs.set((all) => {
    const next = { ...all, [sinkId]: { ...(all[sinkId] ?? { mode: 'table' as ResultMode }), ...patch } };
    try {
      localStorage.setItem(KEY, JSON.stringify(next));
    } catch {
      // Private windows may refuse storage; the choice then lasts for this page only.
    }
    return next;
  });
}
