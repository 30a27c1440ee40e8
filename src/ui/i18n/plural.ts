import type { t as translate } from './i18n.ts';

/** `{base}.one` for exactly one, `{base}.other` otherwise (English needs both; zh-TW gives the same text twice). */
export const plural = (t: typeof translate, base: string, n: number, vars: Record<string, string | number> = {}): string => t(`${base}.${n === 1 ? 'one' : 'other'}`, { n, ...vars });
