// The top-level folders of src/ are layers: a folder may import only from the folders below it.
// A circle between folders means no layer can be understood, tested or moved on its own, so this
// test fails on any import that points upward, naming the file and the import.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const srcDir = dirname(fileURLToPath(import.meta.url));

// What each layer may import besides itself. Folders not listed (runtime, worker, ui, cli, import,
// testing) sit above the core and are checked only for circles.
const ALLOWED: Record<string, readonly string[]> = {
  core: [],
  expr: ['core'],
  generators: ['core'],
  state: ['core'],
  checkpoint: ['core', 'state', 'engine'],
  pipeline: ['core', 'expr', 'generators'],
  engine: ['core', 'expr', 'generators', 'state', 'pipeline'],
  export: ['core', 'expr', 'generators', 'state', 'pipeline', 'engine'],
  storage: ['core', 'state', 'checkpoint', 'engine', 'pipeline'],
};

const IMPORT = /(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

function productFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...productFiles(path));
    else if (/\.tsx?$/.test(entry) && !/\.(test|spec|suite)\.tsx?$/.test(entry)) out.push(path);
  }
  return out;
}

interface Edge { from: string; to: string; file: string; spec: string }

function folderEdges(): Edge[] {
  const edges: Edge[] = [];
  for (const file of productFiles(srcDir)) {
    const from = relative(srcDir, file).split(/[\\/]/)[0];
    if (/\.[a-z]+$/.test(from)) continue; // files directly in src/
    const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    for (const m of code.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2];
      const target = resolve(dirname(file), spec);
      if (!target.startsWith(srcDir)) continue;
      const to = relative(srcDir, target).split(/[\\/]/)[0];
      if (to !== from && !/\.[a-z]+$/.test(to)) edges.push({ from, to, file: relative(srcDir, file), spec });
    }
  }
  return edges;
}

function circles(edges: readonly Edge[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const e of edges) {
    if (!next.has(e.from)) next.set(e.from, new Set());
    next.get(e.from)!.add(e.to);
  }
  // Tarjan's strongly connected components over folders.
  let counter = 0;
  const index = new Map<string, number>(), low = new Map<string, number>(), stack: string[] = [], onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter); low.set(v, counter); counter++; stack.push(v); onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do { w = stack.pop()!; onStack.delete(w); component.push(w); } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of new Set(edges.flatMap((e) => [e.from, e.to]))) if (!index.has(v)) visit(v);
  return found;
}

describe('folder layers', () => {
  const edges = folderEdges();

  it('the core layers import only from the layers below them', () => {
    const upward = edges
      .filter((e) => ALLOWED[e.from] && !ALLOWED[e.from].includes(e.to))
      .map((e) => `src/${e.file} imports ${e.spec} (${e.from} may import only ${ALLOWED[e.from].join(', ') || 'nothing'})`);
    expect(upward).toEqual([]);
  });

  it('no two top-level folders import each other, directly or in a circle', () => {
    expect(circles(edges)).toEqual([]);
  });

  it('finds a circle when there is one', () => {
    const e = (from: string, to: string): Edge => ({ from, to, file: `${from}/x.ts`, spec: `../${to}/y.ts` });
    expect(circles([e('a', 'b'), e('b', 'c'), e('c', 'a'), e('c', 'd')])).toEqual([['a', 'b', 'c']]);
  });
});
