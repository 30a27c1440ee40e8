import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import panels from '../i18n/messages/observatory.ts';
import canvas from '../i18n/messages/observatoryCanvas.ts';

const messages = { en: { ...panels.en, ...canvas.en } };

const files = [
  ...readdirSync(join(process.cwd(), 'src/ui/observatory')).filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.test.ts')).map((f) => join('src/ui/observatory', f)),
  'src/ui/panels/BottomPanel.tsx',
  'src/ui/canvas/OpEdge.tsx',
  'src/ui/canvas/OpNode.tsx',
  'src/ui/canvas/NodeMetricsLine.tsx',
];

describe('observatory messages', () => {
  it('every literal observatory key used in the code has a text', () => {
    const missing: string[] = [];
    for (const f of files) {
      const src = readFileSync(join(process.cwd(), f), 'utf8');
      for (const m of src.matchAll(/'(observatory\.[\w.]+)'/g)) if (!(m[1] in messages.en)) missing.push(`${f}: ${m[1]}`);
    }
    expect(missing).toEqual([]);
  });

  it('keys built from a status or a tab exist for every value', () => {
    for (const s of ['pending', 'completed', 'aborted']) expect(messages.en[`observatory.cp.status.${s}`]).toBeTruthy();
    for (const s of ['pending', 'fired', 'purged']) expect(messages.en[`observatory.windows.status.${s}`]).toBeTruthy();
    for (const s of ['empty', 'number', 'integer', 'boolean']) expect(messages.en[`observatory.query.bad.${s}`]).toBeTruthy();
    for (const s of ['problems', 'results', 'log', 'state', 'join', 'windows', 'checkpoints', 'trace', 'query']) expect(messages.en[`observatory.tab.${s}`]).toBeTruthy();
  });
});
