import { createStore, useStore } from '../store/createStore.ts';

export type Lang = 'en' | 'zh-TW';
export const LANGS: { id: Lang; label: string }[] = [
  { id: 'en', label: 'English' },
  { id: 'zh-TW', label: '繁體中文' },
];

/** One area's strings in every language; keys are `area.name`, values may hold `{placeholders}`. */
export interface MessageArea {
  en: Record<string, string>;
  'zh-TW': Record<string, string>;
}

const STORAGE_KEY = 'weir.lang';

function initialLang(): Lang {
  try {
    const saved = globalThis.localStorage?.getItem(STORAGE_KEY);
    if (saved === 'en' || saved === 'zh-TW') return saved;
  } catch {
    // Storage can be blocked (privacy mode); fall back to the browser language.
  }
  const nav = (globalThis.navigator?.languages ?? [globalThis.navigator?.language ?? 'en']).map((l) => l.toLowerCase());
  return nav.some((l) => l.startsWith('zh')) ? 'zh-TW' : 'en';
}

export const langStore = createStore<Lang>(initialLang());

const areas = import.meta.glob<{ default: MessageArea }>('./messages/*.ts', { eager: true });
const tables: Record<Lang, Map<string, string>> = { en: new Map(), 'zh-TW': new Map() };
for (const mod of Object.values(areas)) {
  for (const lang of ['en', 'zh-TW'] as const) for (const [k, v] of Object.entries(mod.default[lang])) tables[lang].set(k, v);
}

/** Every registered message area, for the translation-completeness test. */
export const messageAreas = (): Record<string, MessageArea> => Object.fromEntries(Object.entries(areas).map(([path, m]) => [path, m.default]));

export function setLang(lang: Lang): void {
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, lang);
  } catch {
    // The choice then lasts for this page only.
  }
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
  langStore.set(lang);
}

/**
 * Translates `key` in the current (or given) language, filling `{name}` placeholders.
 * A missing key shows itself in brackets, so a gap is visible rather than blank.
 */
export function t(key: string, vars?: Record<string, string | number>, lang: Lang = langStore.get()): string {
  const text = tables[lang].get(key) ?? tables.en.get(key) ?? `[${key}]`;
  return vars ? text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m)) : text;
}

/** For components: re-renders on a language switch and returns `t`. */
export function useT(): typeof t {
  const lang = useStore(langStore, (l) => l);
  return (key, vars, l = lang) => t(key, vars, l);
}
