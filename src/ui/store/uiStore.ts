import { createStore } from './createStore.ts';

/** Output tabs, then the observatory's: what the running job holds and does. */
export type BottomTab = 'problems' | 'results' | 'log' | 'state' | 'join' | 'windows' | 'checkpoints' | 'metrics' | 'trace' | 'query' | 'tests';
export type CenterTab = 'canvas' | 'json' | 'sql';
export type Dialog = null | 'help' | 'gallery' | 'projects' | 'trust' | 'share' | 'flinkSql' | 'lessons';
export type Theme = 'light' | 'dark';

export interface UiState {
  bottomTab: BottomTab;
  bottomOpen: boolean;
  centerTab: CenterTab;
  dialog: Dialog;
  theme: Theme;
  /** A short message at the bottom of the screen, such as "Link copied". */
  toast: string | null;
  /** Sink shown in the Results tab. */
  resultSink: string | null;
}

const stored = (): Theme | null => {
  try {
    const t = localStorage.getItem('weir.theme');
    return t === 'light' || t === 'dark' ? t : null;
  } catch {
    return null;
  }
};

const systemTheme = (): Theme => (typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');

export const uiStore = createStore<UiState>({
  bottomTab: 'problems',
  bottomOpen: true,
  centerTab: 'canvas',
  dialog: null,
  theme: stored() ?? systemTheme(),
  toast: null,
  resultSink: null,
});

export const setUi = (patch: Partial<UiState>): void => uiStore.set((s) => ({ ...s, ...patch }));

/** Follows the system theme until the person picks one with the toggle. */
export function followSystemTheme(): () => void {
  if (typeof matchMedia !== 'function') return () => {};
  const mq = matchMedia('(prefers-color-scheme: dark)');
  const on = () => {
    if (!stored()) setUi({ theme: mq.matches ? 'dark' : 'light' });
  };
  mq.addEventListener('change', on);
  return () => mq.removeEventListener('change', on);
}

export function toggleTheme(): void {
  const theme: Theme = uiStore.get().theme === 'dark' ? 'light' : 'dark';
  try {
    localStorage.setItem('weir.theme', theme);
  } catch {
    /* private mode: the toggle still works for this page */
  }
  setUi({ theme });
}

let toastTimer: ReturnType<typeof setTimeout> | null = null;
export function toast(message: string): void {
  setUi({ toast: message });
  if (toastTimer) clearTimeout(toastTimer);
  toastTimer = setTimeout(() => setUi({ toast: null }), 2500);
}
