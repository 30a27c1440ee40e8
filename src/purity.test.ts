// The engine runs unchanged in Node tests, Node worker_threads and browser workers, and replays
// deterministically. That holds only while the pure folders stay free of UI/browser libraries,
// DOM globals, wall-clock time, real timers and unseeded randomness. This test enforces it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const srcDir = dirname(fileURLToPath(import.meta.url));
// The storage adapters (IndexedDB, files) live in src/storage, above state and checkpoint, and are
// not pure: they are the one place the core's store interfaces meet a browser or Node API.
const PURE_DIRS = ['core', 'expr', 'generators', 'engine', 'state', 'checkpoint', 'pipeline', 'export'];
const FORBIDDEN_MODULES = ['react', 'react-dom', 'idb', 'comlink', '@xyflow/react', 'monaco-editor'];

// Matched against code with comments and string contents blanked out. The look-behind skips
// member access (`ctx.timers.setTimeout(` is the injected timer service, not the global).
const FORBIDDEN_CODE: Array<[RegExp, string]> = [
  [/(?<![\w$.])window\s*\??\./g, 'DOM global `window`'],
  [/(?<![\w$.])document\s*\??\./g, 'DOM global `document`'],
  [/(?<![\w$.])navigator\s*\??\./g, 'DOM global `navigator`'],
  [/(?<![\w$.])localStorage\b/g, 'DOM global `localStorage`'],
  [/(?<![\w$.])indexedDB\b/g, 'DOM global `indexedDB`'],
  [/(?<![\w$.])Date\s*\.\s*now\s*\(/g, '`Date.now()` (inject a clock)'],
  [/(?<![\w$.])setTimeout\s*\(/g, '`setTimeout()` (inject a timer service)'],
  [/(?<![\w$.])setInterval\s*\(/g, '`setInterval()` (inject a timer service)'],
  [/(?<![\w$.])Math\s*\.\s*random\s*\(/g, '`Math.random()` (use the seeded rng)'],
  [/\b(?:globalThis|self)\s*\??\.\s*(?:setTimeout|setInterval|window|document|navigator|localStorage|indexedDB)\b/g,
    'browser/timer global reached through globalThis/self'],
];

// Each pattern ends at the opening quote of a module specifier.
const IMPORT_SITES = [
  /\b(?:import|export)\s[^;'"`]*?\bfrom\s*(?=['"])/g, // import x from '…' / export { x } from '…'
  /\bimport\s*(?=['"])/g, // import '…'
  /\bimport\s*\(\s*(?=['"])/g, // import('…')
  /\brequire\s*\(\s*(?=['"])/g, // require('…')
];

export interface Violation {
  line: number;
  message: string;
}

/**
 * Two same-length views of `source`: `noComments` (comments blanked) and `codeOnly` (comments
 * and the contents of strings, template text and regex literals blanked; quotes kept). Newlines
 * survive so offsets and line numbers agree with the original.
 */
export function blankNonCode(source: string): { noComments: string; codeOnly: string } {
  const noComments = source.split('');
  const codeOnly = source.split('');
  const blank = (i: number, view: string[]) => {
    if (view[i] !== '\n' && view[i] !== '\r') view[i] = ' ';
  };
  const blankBoth = (i: number) => {
    blank(i, noComments);
    blank(i, codeOnly);
  };
  // Brace depth at which each open template literal's `${` started.
  const templateStack: number[] = [];
  let braceDepth = 0;
  let lastSignificant = ''; // previous non-space code character, to tell regex from division
  let lastWord = '';
  let i = 0;
  const n = source.length;
  const regexCanStart = () =>
    lastSignificant === '' || /[(,=:[!&|?{};+\-*%<>~^]/.test(lastSignificant) ||
    /^(?:return|typeof|instanceof|in|of|new|delete|void|throw|case|do|else|yield|await)$/.test(lastWord);

  const skipString = (quote: string) => {
    i++; // opening quote stays
    while (i < n && source[i] !== quote && source[i] !== '\n') {
      if (source[i] === '\\' && i + 1 < n) {
        blank(i, codeOnly);
        i++;
      }
      blank(i, codeOnly);
      i++;
    }
    i++; // closing quote stays
  };
  // Scans template text from i until the closing backtick or a `${`.
  const skipTemplateText = () => {
    while (i < n) {
      const c = source[i];
      if (c === '\\' && i + 1 < n) {
        blank(i, codeOnly);
        blank(i + 1, codeOnly);
        i += 2;
      } else if (c === '`') {
        i++;
        return;
      } else if (c === '$' && source[i + 1] === '{') {
        templateStack.push(braceDepth);
        braceDepth++;
        i += 2;
        return;
      } else {
        blank(i, codeOnly);
        i++;
      }
    }
  };

  while (i < n) {
    const c = source[i];
    const next = source[i + 1];
    if (c === '/' && next === '/') {
      while (i < n && source[i] !== '\n') blankBoth(i++);
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? n : end + 2;
      while (i < stop) blankBoth(i++);
    } else if (c === '"' || c === "'") {
      skipString(c);
      lastSignificant = c;
      lastWord = '';
    } else if (c === '`') {
      i++;
      skipTemplateText();
      lastSignificant = '`';
      lastWord = '';
    } else if (c === '/' && regexCanStart()) {
      i++;
      let inClass = false;
      while (i < n && source[i] !== '\n' && (inClass || source[i] !== '/')) {
        if (source[i] === '\\' && i + 1 < n) {
          blank(i, codeOnly);
          i++;
        } else if (source[i] === '[') inClass = true;
        else if (source[i] === ']') inClass = false;
        blank(i, codeOnly);
        i++;
      }
      i++; // closing slash
      while (i < n && /[a-z]/i.test(source[i])) i++; // flags
      lastSignificant = '/';
      lastWord = '';
    } else if (c === '}' && templateStack.length && templateStack[templateStack.length - 1] === braceDepth - 1) {
      templateStack.pop();
      braceDepth--;
      i++;
      skipTemplateText();
      lastSignificant = '`';
      lastWord = '';
    } else {
      if (c === '{') braceDepth++;
      else if (c === '}') braceDepth--;
      if (/[\w$]/.test(c)) {
        let j = i;
        while (j < n && /[\w$]/.test(source[j])) j++;
        lastWord = source.slice(i, j);
        lastSignificant = source[j - 1];
        i = j;
        continue;
      }
      if (!/\s/.test(c)) {
        lastSignificant = c;
        lastWord = '';
      }
      i++;
    }
  }
  return { noComments: noComments.join(''), codeOnly: codeOnly.join('') };
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let k = 0; k < offset; k++) if (text.charCodeAt(k) === 10) line++;
  return line;
}

/** Every purity violation in one file's source, in source order. */
export function findViolations(source: string): Violation[] {
  const { noComments, codeOnly } = blankNonCode(source);
  const found: Array<Violation & { offset: number }> = [];
  for (const site of IMPORT_SITES) {
    for (const m of codeOnly.matchAll(site)) {
      const quoteAt = m.index + m[0].length;
      const quote = noComments[quoteAt];
      const end = noComments.indexOf(quote, quoteAt + 1);
      const specifier = noComments.slice(quoteAt + 1, end);
      const banned = FORBIDDEN_MODULES.find((mod) => specifier === mod || specifier.startsWith(mod + '/'));
      if (banned) found.push({ offset: quoteAt, line: lineAt(source, quoteAt), message: `imports '${specifier}'` });
    }
  }
  for (const [pattern, what] of FORBIDDEN_CODE) {
    for (const m of codeOnly.matchAll(pattern)) {
      found.push({ offset: m.index, line: lineAt(source, m.index), message: `uses ${what}` });
    }
  }
  return found.sort((a, b) => a.offset - b.offset).map(({ line, message }) => ({ line, message }));
}

function pureFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      return; // a pure folder that does not exist yet
    }
    for (const entry of entries.sort()) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) {
        walk(path);
      } else if (/\.tsx?$/.test(entry) && !/\.test\.tsx?$/.test(entry)) {
        files.push(path);
      }
    }
  };
  for (const dir of PURE_DIRS) walk(join(srcDir, dir));
  return files;
}

describe('purity of engine, state, checkpoint, pipeline and export', () => {
  it('no pure file imports UI/browser libraries, touches DOM globals, wall-clock time, timers or Math.random', () => {
    const files = pureFiles();
    expect(files.length).toBeGreaterThan(0);
    const report: string[] = [];
    for (const file of files) {
      for (const v of findViolations(readFileSync(file, 'utf8'))) {
        report.push(`src/${relative(srcDir, file).split('\\').join('/')}:${v.line}: ${v.message}`);
      }
    }
    expect(report, `purity violations:\n${report.join('\n')}`).toEqual([]);
  });
});

describe('the purity checker itself', () => {
  it('catches planted violations and names their lines', () => {
    const planted = [
      "import React from 'react';", // 1
      "import { createRoot } from 'react-dom/client';", // 2
      "import type { Remote } from 'comlink';", // 3
      "export { openDB } from 'idb';", // 4
      "const m = await import('monaco-editor/esm/vs/editor/editor.api');", // 5
      "import '@xyflow/react/dist/style.css';", // 6
      'const w = window.innerWidth;', // 7
      'document.title = x;', // 8
      'const lang = navigator.language;', // 9
      "localStorage.setItem('k', 'v');", // 10
      'const db = indexedDB.open(name);', // 11
      'const now = Date.now();', // 12
      'setTimeout(() => tick(), 10);', // 13
      'const h = setInterval(poll, 5);', // 14
      'const r = Math.random();', // 15
      'const label = `at ${Date.now()} ms`;', // 16: code inside a template is code
      'globalThis.setTimeout(f, 1);', // 17
    ].join('\n');
    const lines = findViolations(planted).map((v) => v.line);
    expect(lines).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]);
    expect(findViolations(planted)[0].message).toBe("imports 'react'");
  });

  it('ignores comments, strings, template text, regex literals and allowed look-alikes', () => {
    const clean = [
      '// Date.now() and setTimeout( are banned; window.foo too',
      "/* import React from 'react'; Math.random() */",
      "const doc = 'window.location and document.body and Date.now()';",
      'const help = "call setInterval(fn) in the UI, not here";',
      'const t = `use ctx.clock instead of Date.now() or ${name} Math.random()`;',
      "const example = `import x from 'react'`;",
      'const re = /setTimeout\\(|window\\./g;',
      "import { compile } from './reactive.ts';",
      "import { x } from 'reactor';",
      'ctx.timers.setTimeout(5);',
      'const now = clock.now();',
      'const rnd = rng.random();',
      'const { document } = parsed;',
      'const ratio = a / b / c; const again = total / window2.size;',
    ].join('\n');
    expect(findViolations(clean)).toEqual([]);
  });

  it('keeps line numbers right after multi-line comments and templates', () => {
    const src = ['/*', ' * long', ' */', 'const s = `a', 'b ${1 + 1} c', '`;', 'Math.random();'].join('\n');
    expect(findViolations(src)).toEqual([{ line: 7, message: 'uses `Math.random()` (use the seeded rng)' }]);
  });
});
