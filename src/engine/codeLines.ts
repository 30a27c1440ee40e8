import { parse } from 'acorn';

/** The name under which the code sees its line tracker (a one-element Int32Array). */
export const LINE_TRACKER = '__weirAt';

interface AstNode {
  type: string;
  start: number;
  end: number;
  loc?: { start: { line: number } };
  body?: AstNode;
  [k: string]: unknown;
}

const LOOPS = new Set(['WhileStatement', 'DoWhileStatement', 'ForStatement', 'ForInStatement', 'ForOfStatement']);
const FUNCTIONS = new Set(['FunctionExpression', 'FunctionDeclaration', 'ArrowFunctionExpression']);

/**
 * Marks every loop body and function entry of transpiled user code with the line it starts on,
 * so that a watchdog that stops the code can name the line it was running (a loop that never
 * ends, a function called for ever), not only the record. One store into a typed array per
 * iteration: cheap next to the code's own work. Lines are the user's own: the transpiler keeps
 * them, and the code is one expression wrapped in '(' … ')' on the same first line.
 */
export function markLines(js: string): string {
  const ast = parse(js, { ecmaVersion: 'latest', sourceType: 'script', locations: true }) as unknown as AstNode;
  const inserts: { at: number; text: string; order: number }[] = [];
  const mark = (line: number) => `${LINE_TRACKER}[0]=${line};`;
  const markBody = (body: AstNode, line: number) => {
    if (body.type === 'BlockStatement') inserts.push({ at: body.start + 1, text: mark(line), order: 1 });
    else if (body.type.endsWith('Statement') || body.type.endsWith('Declaration')) {
      inserts.push({ at: body.start, text: `{${mark(line)}`, order: 1 }, { at: body.end, text: '}', order: 0 });
    } else {
      // An arrow function's expression body: (mark, expression) keeps its value.
      inserts.push({ at: body.start, text: `(${LINE_TRACKER}[0]=${line},`, order: 1 }, { at: body.end, text: ')', order: 0 });
    }
  };
  const visit = (n: unknown): void => {
    if (Array.isArray(n)) return n.forEach(visit);
    if (n === null || typeof n !== 'object' || typeof (n as AstNode).type !== 'string') return;
    const node = n as AstNode;
    const line = node.loc?.start.line ?? 1;
    if ((LOOPS.has(node.type) || FUNCTIONS.has(node.type)) && node.body) markBody(node.body, line);
    for (const k of Object.keys(node)) if (k !== 'loc' && k !== 'type') visit(node[k]);
  };
  visit(ast);
  // From the end, so earlier offsets stay valid; at one offset, closers before openers.
  inserts.sort((a, b) => b.at - a.at || b.order - a.order);
  let out = js;
  for (const i of inserts) out = out.slice(0, i.at) + i.text + out.slice(i.at);
  return out;
}

/** "line 3 of the code: while (true) {}", for a message; empty when the line is unknown. */
export function lineOfCode(code: string | undefined, line: number): string {
  if (!code || !(line >= 1)) return '';
  const text = code.split('\n')[line - 1]?.trim() ?? '';
  if (!text) return `line ${line} of the code`;
  return `line ${line} of the code: ${text.length > 80 ? `${text.slice(0, 80)}…` : text}`;
}
