import ts from 'typescript';

// Used by hardcoded.test.ts only (it needs the TypeScript parser, so the app never imports it).
// Attributes whose text a user reads or a screen reader speaks.
const TEXT_PROPS = new Set(['aria-label', 'title', 'placeholder', 'label', 'alt', 'aria-description', 'aria-placeholder', 'aria-roledescription']);
const LETTERS = /\p{L}/u;
/** True non-text that contains letters: units and identifiers shown as they are. Keep this short. */
const ALLOWED = new Set(['ms', 'JSON', 'SQL', 'ID', 'id', 'weir', 'Weir']);

const isT = (e: ts.Expression) => ts.isIdentifier(e) && e.text === 't';

/** String pieces an expression can evaluate to: literals in result position, not arguments of calls (t keys, ids). */
function resultTexts(e: ts.Expression): string[] {
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return [e.text];
  if (ts.isTemplateExpression(e)) return [e.head.text, ...e.templateSpans.map((s) => s.literal.text)];
  if (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isNonNullExpression(e)) return resultTexts(e.expression);
  if (ts.isConditionalExpression(e)) return [...resultTexts(e.whenTrue), ...resultTexts(e.whenFalse)];
  if (ts.isBinaryExpression(e)) {
    const op = e.operatorToken.kind;
    if (op === ts.SyntaxKind.AmpersandAmpersandToken) return resultTexts(e.right);
    if (op === ts.SyntaxKind.BarBarToken || op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.PlusToken) return [...resultTexts(e.left), ...resultTexts(e.right)];
  }
  return [];
}

const isText = (s: string) => LETTERS.test(s) && !ALLOWED.has(s.trim());

/** Hard-coded user-visible strings in one TSX source, with line numbers. */
export function findHardcoded(source: string, file = 'x.tsx'): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const out: string[] = [];
  const report = (node: ts.Node, text: string) => out.push(`${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${JSON.stringify(text.trim())}`);
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && isT(node.expression)) return;
    if (ts.isJsxText(node) && isText(node.text)) report(node, node.text);
    if (ts.isJsxExpression(node) && node.expression && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))) {
      for (const s of resultTexts(node.expression)) if (isText(s)) report(node, s);
    }
    if (ts.isJsxAttribute(node) && TEXT_PROPS.has(node.name.getText(sf)) && node.initializer) {
      const init = node.initializer;
      const texts = ts.isStringLiteral(init) ? [init.text] : ts.isJsxExpression(init) && init.expression ? resultTexts(init.expression) : [];
      for (const s of texts) if (isText(s)) report(node, `${node.name.getText(sf)}=${s}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}
