/**
 * A script's parse tree built statement by statement, each statement's tree kept for the next parse.
 * The SQL tab plans the whole script on every keystroke, and parsing is most of that time; an edit
 * changes one statement, so the others' trees are taken from the cache and moved to where the
 * statement now stands.
 *
 * The script is split where the lexer finds a `;` (a string, a comment or a quoted name never
 * splits it). Each piece is parsed alone, from a state the lexer and parser are in after any `;`,
 * so its tree is the one the whole script's parse builds there. A piece that does not parse alone
 * (a statement set's `BEGIN … END`, a syntax error) makes the whole script parse as one, as before.
 *
 * Trees are reused, not copied: a tree from `parseScript` is valid until the next `parseScript`.
 * Only whole-script planning calls it; parses of parts of a script (parseFlinkSql) never touch it.
 */
import { FlinkSqlLexer } from 'dt-sql-parser/dist/lib/flink/FlinkSqlLexer';
import { FlinkSqlParser, ProgramContext } from 'dt-sql-parser/dist/lib/flink/FlinkSqlParser';
import type { FlinkSQL } from 'dt-sql-parser';
import { flinkSqlParser, kids, parseFlinkSql, terminals } from './parseTree.ts';
import type { SyntaxProblem, Tree, TreeToken } from './parseTree.ts';

/** Where a piece starts in the script: offset, 1-based line, 0-based column. */
interface Place {
  offset: number;
  line: number;
  column: number;
}

interface Piece {
  tree: Tree;
  tokens: TreeToken[];
  /** Where the tokens' positions now say the piece starts. */
  at: Place;
}

/** Enough for a long script and the versions of the statement being edited. */
const KEEP = 256;
/** null: the piece does not parse alone (kept too, so a statement set does not try again on every keystroke). */
const cache = new Map<string, Piece | null>();

type Mutable = { -readonly [K in keyof TreeToken]: TreeToken[K] };

/** Moves a piece's tokens from where they stand to `to`; a token keeps its text, which otherwise reads from its piece's offsets. */
function move(piece: Piece, to: Place): void {
  const from = piece.at;
  if (from.offset === to.offset && from.line === to.line && from.column === to.column) return;
  for (const t of piece.tokens as Mutable[]) {
    if (t.line === from.line) t.column += to.column - from.column;
    t.line += to.line - from.line;
    t.start += to.offset - from.offset;
    t.stop += to.offset - from.offset;
  }
  piece.at = to;
}

/** A piece parsed alone, its positions those of a script that starts with it; null when it does not parse alone. */
function parsePiece(parser: FlinkSQL, text: string): Piece | null {
  let failed = false;
  const tree = parser.parse(text, () => (failed = true)) as unknown as Tree;
  if (failed) return null;
  const tokens = terminals(tree);
  for (const t of tokens as Mutable[]) t.text = t.text;
  return { tree, tokens, at: { offset: 0, line: 1, column: 0 } };
}

/** The script's pieces: each ends with a `;` but the last, which holds the rest (maybe only blanks and comments). */
function split(parser: FlinkSQL, sql: string): { text: string; at: Place }[] {
  const pieces: { text: string; at: Place }[] = [];
  let at: Place = { offset: 0, line: 1, column: 0 };
  for (const t of parser.createLexer(sql).getAllTokens()) {
    if (t.type !== FlinkSqlLexer.SEMICOLON || t.channel !== 0) continue;
    pieces.push({ text: sql.slice(at.offset, t.stop + 1), at });
    at = { offset: t.stop + 1, line: t.line, column: t.column + 1 };
  }
  pieces.push({ text: sql.slice(at.offset), at });
  return pieces;
}

/** Takes a piece's tree from the cache (moved to `at`) or parses it; a text seen twice in one script is parsed again, since one tree cannot stand in two places. */
function pieceAt(parser: FlinkSQL, text: string, at: Place, used: Set<string>): Piece | null {
  const kept = used.has(text) ? undefined : cache.get(text);
  const piece = kept === undefined ? parsePiece(parser, text) : kept;
  if (!used.has(text)) {
    cache.delete(text);
    cache.set(text, piece);
    used.add(text);
  }
  if (!piece) return null;
  move(piece, at);
  return piece;
}

/** As parseFlinkSql, reusing the trees of the statements an earlier call parsed. */
export function parseScript(sql: string, parser: FlinkSQL = flinkSqlParser()): { errors: SyntaxProblem[]; tree: Tree | null } {
  const used = new Set<string>();
  const trees: Tree[] = [];
  for (const { text, at } of split(parser, sql)) {
    const piece = pieceAt(parser, text, at, used);
    if (!piece) return parseFlinkSql(sql, parser);
    trees.push(piece.tree);
  }
  while (cache.size > KEEP) cache.delete(cache.keys().next().value!);
  return { errors: [], tree: joined(trees) };
}

/** One `program` holding every piece's statements and the last piece's end of input, as the whole script's parse has it. */
function joined(programs: Tree[]): Tree {
  const program = new ProgramContext(null, -1);
  const last = programs.length - 1;
  const all = programs.flatMap((p, i) => kids(p).filter((c) => i === last || (c.symbol as { type?: number } | undefined)?.type !== FlinkSqlParser.EOF));
  for (const c of all) (c as unknown as { parent: ProgramContext | null }).parent = program;
  program.children = all as unknown as ProgramContext['children'];
  const first = programs[0] as unknown as ProgramContext;
  program.start = first.start;
  // The whole parse's program ends at the token before the end of input: a trailing piece of blanks has none.
  program.stop = programs.map((p) => (p as unknown as ProgramContext).stop).reduce((a, b) => b ?? a, null);
  return program as unknown as Tree;
}
