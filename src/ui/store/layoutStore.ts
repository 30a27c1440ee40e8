import { createStore } from './createStore.ts';

/** Sizes and switches of the workbench, remembered across visits. */
export interface Layout {
  paletteOpen: boolean;
  inspectorOpen: boolean;
  paletteWidth: number;
  inspectorWidth: number;
  bottomHeight: number;
  minimap: boolean;
  /** Teaching: larger type, the canvas and one observatory tab, nothing else. */
  presentation: boolean;
}

const KEY = 'weir.layout';
export const LIMITS = { palette: [160, 420], inspector: [240, 560], bottom: [120, 640] } as const;

/** First visit: sizes that leave the canvas room at the window's size (a projector is often 1280×720). */
export function defaultLayout(width: number, height: number): Layout {
  return {
    paletteOpen: width >= 1000,
    inspectorOpen: width >= 760,
    paletteWidth: width >= 1280 ? 240 : 200,
    inspectorWidth: width >= 1280 ? 330 : 280,
    bottomHeight: Math.round(Math.min(300, Math.max(LIMITS.bottom[0], height * 0.3))),
    minimap: true,
    presentation: false,
  };
}

export const clamp = (v: number, [lo, hi]: readonly [number, number]): number => Math.round(Math.min(hi, Math.max(lo, v)));

function load(): Layout {
  const base = typeof window === 'undefined' ? defaultLayout(1280, 800) : defaultLayout(window.innerWidth, window.innerHeight);
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Partial<Layout> | null;
    // Presentation mode is for one session in front of a class: never start in it.
    return saved && typeof saved === 'object' ? { ...base, ...saved, presentation: false } : base;
  } catch {
    return base;
  }
}

export const layoutStore = createStore<Layout>(load());

export function setLayout(patch: Partial<Layout>): void {
  layoutStore.set((s) => ({ ...s, ...patch }));
  try {
    localStorage.setItem(KEY, JSON.stringify(layoutStore.get()));
  } catch {
    /* private mode: the layout still applies for this page */
  }
}
