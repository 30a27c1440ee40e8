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

/** Width of a collapsed side panel: room for its expand button. */
export const RAIL = 28;
/** The canvas and its toolbar need this much width; below it a side panel folds to its rail. */
export const MIN_CENTER = 420;

/**
 * The side panels to fold so the canvas keeps MIN_CENTER at this window width: the palette first,
 * then the inspector, but never `keep` (the one the user just opened). Null when all fits.
 */
export function foldToFit(l: Layout, width: number, keep?: 'palette' | 'inspector'): Partial<Layout> | null {
  if (l.presentation) return null;
  const patch: Partial<Layout> = {};
  let palette = l.paletteOpen;
  let inspector = l.inspectorOpen;
  const center = () => width - (palette ? l.paletteWidth : RAIL) - (inspector ? l.inspectorWidth : RAIL);
  for (const side of keep === 'palette' ? (['inspector'] as const) : keep === 'inspector' ? (['palette'] as const) : (['palette', 'inspector'] as const)) {
    if (center() >= MIN_CENTER) break;
    if (side === 'palette' && palette) patch.paletteOpen = palette = false;
    if (side === 'inspector' && inspector) patch.inspectorOpen = inspector = false;
  }
  return Object.keys(patch).length ? patch : null;
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
