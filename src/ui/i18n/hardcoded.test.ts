import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findHardcoded } from './findHardcoded.ts';

function tsxFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? tsxFiles(join(dir, d.name)) : d.name.endsWith('.tsx') ? [join(dir, d.name)] : []));
}

describe('hard-coded UI strings', () => {
  it('the scanner finds text nodes, text props and result strings, and skips t() and non-text', () => {
    const found = findHardcoded(`
      const A = () => <div title="Hello" className="x-y">
        Plain text {t('a.b')} {ok ? 'Yes' : t('c.d')} {n && \`\${n} rows\`} <b aria-label={t('e.f', { n: 'x' })}>▾</b>
        {list.filter((x) => x.kind === 'value').length} ms
      </div>;`);
    expect(found).toEqual(['2: "title=Hello"', '3: "Plain text"', '3: "Yes"', '3: "rows"']);
  });

  const root = join(process.cwd(), 'src/ui');
  for (const file of tsxFiles(root)) {
    const rel = relative(process.cwd(), file);
    it(`${rel} has no hard-coded user-visible strings (wrap them in t())`, () => {
      expect(findHardcoded(readFileSync(file, 'utf8'), rel)).toEqual([]);
    });
  }
});
