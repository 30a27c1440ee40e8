/**
 * The Flink expression forms that are not written token for token in Weir's expression language:
 * the special syntax of POSITION, EXTRACT, FLOOR/CEIL … TO, TIMESTAMPADD/DIFF, TRIM(LEADING …),
 * DATE/TIMESTAMP literals, IS [NOT] TRUE/FALSE/UNKNOWN, IS JSON, BETWEEN SYMMETRIC; and the
 * built-ins Weir does not carry, each with the nearest form it does.
 */
import { compileExpr } from '../../../expr/index.ts';
import type { FieldType } from '../../../expr/index.ts';
import type { Tree } from '../../../export/flinkSql/verify/parseTree.ts';
import { altOf, childOf, find, keywordsOf, kids, ruleOf, textOf } from '../../../export/flinkSql/verify/parseTree.ts';
import type { Col } from './model.ts';
import { fail } from './model.ts';
import type { Scope } from './expr.ts';
import { callArgs, callName, constantValue, intervalMs } from './expr.ts';
import { PatternError, likeRegex, similarRegex } from './likePatterns.ts';

/** A text constant in Weir's expression language. */
const sqlText = (s: string): string => `'${s.replace(/'/g, "''")}'`;
import { TRIM_NAMES } from './exprSyntax.ts';
import { jsonValueCall } from './jsonValue.ts';

const PROCESSING_TIME = 'processing time is not an expression in Weir (a run must give the same result every time); use the event-time column';
const MAP_CODE = 'compute it in a map node with code';

/** Flink built-ins Weir's expression language does not carry, with what to do instead. */
export const NOT_CARRIED: Record<string, string> = {
  CURRENT_TIMESTAMP: PROCESSING_TIME,
  CURRENT_ROW_TIMESTAMP: PROCESSING_TIME,
  NOW: PROCESSING_TIME,
  LOCALTIMESTAMP: PROCESSING_TIME,
  LOCALTIME: PROCESSING_TIME,
  CURRENT_TIME: PROCESSING_TIME,
  CURRENT_DATE: PROCESSING_TIME,
  UNIX_TIMESTAMP: `UNIX_TIMESTAMP() without arguments is the current time: ${PROCESSING_TIME}; UNIX_TIMESTAMP(text[, pattern]) is read`,
  PROCTIME: 'declare `name AS PROCTIME()` as a computed column of the table',
  CONVERT_TZ: "Weir's session time zone is UTC; shift a fixed offset with TIMESTAMPADD(HOUR, n, ts)",
  DATE_ADD: 'not a Flink built-in: TIMESTAMPADD(DAY, n, d)',
  DATE_SUB: 'not a Flink built-in: TIMESTAMPADD(DAY, -n, d)',
  DATEDIFF: 'not a Flink built-in: TIMESTAMPDIFF(DAY, a, b)',
  UUID: 'randomness is not an expression in Weir (a run must give the same result every time); use MD5 or SHA256 of a key',
  RAND: 'randomness is not an expression in Weir (a run must give the same result every time)',
  RAND_INTEGER: 'randomness is not an expression in Weir (a run must give the same result every time)',
  HASH_CODE: 'use MD5(s) or SHA256(s)',
  TYPEOF: 'types are fixed when the pipeline is built; see the node inspector',
  BTRIM: "use TRIM(BOTH 'chars' FROM s)",
  STARTSWITH: "use s LIKE 'prefix%'",
  ENDSWITH: "use s LIKE '%suffix'",
  REGEXP_SUBSTR: 'use REGEXP_EXTRACT(s, pattern)',
  REGEXP_INSTR: `use REGEXP(s, pattern) to test, or ${MAP_CODE}`,
  REGEXP_COUNT: MAP_CODE,
  REGEXP_EXTRACT_ALL: MAP_CODE,
  PARSE_URL: 'use REGEXP_EXTRACT(url, pattern, 1)',
  URL_ENCODE: MAP_CODE,
  URL_DECODE: MAP_CODE,
  PRINTF: 'use CONCAT(…) or ||',
  ELT: 'use CASE n WHEN 1 THEN a WHEN 2 THEN b END',
  DECODE: MAP_CODE,
  ENCODE: MAP_CODE,
  SPLIT: 'use SPLIT_INDEX(s, sep, i)',
  IS_DIGIT: "use REGEXP(s, '^[0-9]+$')",
  IS_ALPHA: "use REGEXP(s, '^[A-Za-z]+$')",
  IS_DECIMAL: "use REGEXP(s, '^[0-9]+(\\.[0-9]+)?$')",
  JSON_OBJECTAGG: 'use an aggregate with code (udaf)',
  JSON_ARRAYAGG: 'use an aggregate with code (udaf)',
  ELEMENT: 'arrays are json values in Weir: JSON_VALUE(col, \'$[0]\')',
  LISTAGG: 'LISTAGG is an aggregate: SELECT k, LISTAGG(x [, separator]) FROM t GROUP BY k',
  LAG: 'LAG reads an OVER window: LAG(x [, offset [, default]]) OVER (PARTITION BY … ORDER BY <time attribute>)',
  LEAD: "LEAD needs rows that have not arrived, and Flink's streaming planner refuses it; look back with LAG(x) OVER (PARTITION BY … ORDER BY <time attribute>) instead",
};

/** The static type of a Weir expression over these columns (null when unsure), so computed columns keep one. */
export function exprType(weirText: string, cols: readonly Col[]): FieldType | null {
  const types: Record<string, FieldType> = {};
  for (const c of cols) if (c.type) types[c.field] = c.type;
  try {
    return compileExpr(weirText).typeOf(types);
  } catch {
    return null;
  }
}

const typeIn = (scope: Scope, weirText: string): FieldType | null => exprType(weirText, scope.cols);

/** CAST targets whose Weir meaning needs the operand's type: DATE, TIMESTAMP, and STRING of a timestamp. */
export function temporalCast(scope: Scope, typeText: string, operand: string): string | null {
  if (/^DATE$/.test(typeText)) return `CAST(${operand} AS DATE)`;
  // A TIME is its 'HH:mm:ss' text: the time of day of a timestamp; text is taken as written.
  if (/^TIME(\s*\(\s*\d+\s*\))?$/.test(typeText)) return typeIn(scope, operand) === 'timestamp' ? `DATE_FORMAT(${operand}, 'HH:mm:ss')` : `CAST(${operand} AS STRING)`;
  if (/^TIMESTAMP(_LTZ)?\b/.test(typeText)) {
    // A timestamp is epoch milliseconds already; only text has to be read.
    return typeIn(scope, operand) === 'string' ? `CAST(${operand} AS TIMESTAMP(3))` : operand;
  }
  if (/^(STRING|VARCHAR|CHAR)\b/.test(typeText) && typeIn(scope, operand) === 'timestamp') {
    // Flink prints a TIMESTAMP(3) as 'yyyy-MM-dd HH:mm:ss.SSS' (UTC here).
    return `DATE_FORMAT(${operand}, 'yyyy-MM-dd HH:mm:ss.SSS')`;
  }
  return null;
}

const unitOf = (t: Tree): string => t.getText().replace(/^SQL_TSI_/i, '').toUpperCase();

/** The special forms; null when `t` is none of them (the caller renders it token by token). */
export function renderForm(t: Tree, scope: Scope, r: (x: Tree) => string): string | null {
  const rule = ruleOf(t);
  const alt = altOf(t);
  if (rule === 'reservedKeywordsNoParamsUsedAsFuncName' || (rule === 'reservedKeywordsUsedAsFuncParam' && /^(CURRENT_|LOCALTIME)/i.test(t.getText()))) {
    // CURRENT_TIMESTAMP and its kin, wherever they stand (an argument, a comparison).
    const word = t.getText().toUpperCase();
    fail(t, word, `not in Weir's expression language: ${NOT_CARRIED[word] ?? PROCESSING_TIME}`);
  }
  if (alt === 'Position') {
    const [a, b] = kids(t).filter((k) => !k.symbol);
    return `POSITION((${r(a)}) IN ${r(b)})`;
  }
  if (alt === 'ArithmeticBinary' && kids(t).some((k) => k.symbol?.text === '/')) {
    // Flink divides two integers as integers (7 / 2 is 3, truncated toward zero); Weir's `/` is
    // exact, so the quotient is cast back, which truncates the same way.
    const [a, b] = kids(t).filter((k) => !k.symbol).map(r);
    const quotient = `(${a}) / (${b})`;
    return typeIn(scope, a) === 'integer' && typeIn(scope, b) === 'integer' ? `CAST(${quotient} AS BIGINT)` : quotient;
  }
  if (alt === 'Predicated') return predicate(t, scope, r);
  if (rule === 'timeIntervalExpression' && find(t, 'unitToUnitInterval')) {
    // INTERVAL '1 02' DAY TO HOUR: Weir's intervals have one unit, so the same length in the largest that fits.
    const ms = intervalMs(textOf(scope.sql, t), t, 'INTERVAL');
    for (const [unit, size] of [['DAY', 86_400_000], ['HOUR', 3_600_000], ['MINUTE', 60_000]] as const) {
      if (ms % size === 0 && Math.abs(ms / size) < 100) return `INTERVAL '${ms / size}' ${unit}`;
    }
    return `INTERVAL '${ms / 1000}' SECOND`;
  }
  if (alt !== 'FunctionCall' && rule !== 'functionCallExpression') return null;
  const call = rule === 'functionCallExpression' ? t : childOf(t, 'functionCallExpression');
  if (!call) return null;
  const literal = childOf(call, 'functionNameAndParams');
  if (literal) {
    // DATE '2024-01-01', TIMESTAMP '2024-01-01 10:00:00': typed literals.
    const [kw, value] = kids(literal).map((k) => k.getText());
    const word = kw.toUpperCase();
    if (word === 'DATE') return `CAST(${value} AS DATE)`;
    if (word === 'TIME') return value;
    if (word === 'TIMESTAMP' || word === 'TIMESTAMP_LTZ') return `CAST(${value} AS TIMESTAMP(3))`;
    fail(t, `${word} '…'`, `Weir has dates, times and timestamps, not ${word} values: write DATE '…', TIME '…' or TIMESTAMP '…'`);
  }
  const name = callName(t);
  if (!name || !kids(call).some((k) => k.symbol?.text === '(')) return null;
  const { args } = callArgs(t);
  const side = TRIM_NAMES[name];
  if (side) {
    // TRIM(LEADING|TRAILING|BOTH [chars] FROM s), which the pre-pass wrote as TR_x([chars,] s).
    const s = r(args[args.length - 1]);
    const chars = args.length === 2 ? r(args[0]) : null;
    if (side === 'BOTH' && (chars === null || chars === "' '")) return `TRIM(${s})`;
    return `TRIM(${side}${chars === null ? '' : ` (${chars})`} FROM ${s})`;
  }
  if (name === 'EXTRACT' && args.length === 2) return `EXTRACT(${unitOf(args[0])} FROM ${r(args[1])})`;
  if ((name === 'FLOOR' || name === 'CEIL' || name === 'CEILING') && args.length === 2) return `${name === 'FLOOR' ? 'FLOOR' : 'CEIL'}(${r(args[0])} TO ${unitOf(args[1])})`;
  if ((name === 'TIMESTAMPADD' || name === 'TIMESTAMPDIFF') && args.length === 3) return `${name}(${unitOf(args[0])}, ${r(args[1])}, ${r(args[2])})`;
  if (name === 'UNIX_TIMESTAMP' && args.length === 0) fail(t, 'UNIX_TIMESTAMP()', `not in Weir's expression language: ${NOT_CARRIED.UNIX_TIMESTAMP}`);
  if (name === 'OVERLAY' && (args.length === 3 || args.length === 4)) return `OVERLAY(${r(args[0])} PLACING ${r(args[1])} FROM ${r(args[2])}${args[3] ? ` FOR ${r(args[3])}` : ''})`;
  if (name === 'JSON_OBJECT' || name === 'JSON_ARRAY') return jsonConstructor(t, name, args, scope, r);
  if (name === 'JSON_VALUE' || name === 'JSON_QUERY' || name === 'JSON_EXISTS') {
    if (name === 'JSON_VALUE' && args.length === 2) {
      const inputType = exprType(r(args[0]), scope.cols);
      const done = jsonValueCall(t, args[0], args[1], scope, r, inputType === 'json');
      if (done !== null) return done;
    }
    const clause = /\b(RETURNING\s+\w+|(?:NULL|ERROR|EMPTY|DEFAULT\s+.+?|TRUE|FALSE|UNKNOWN)\s+ON\s+(?:EMPTY|ERROR)|WITH(?:OUT)?\s+(?:CONDITIONAL\s+|UNCONDITIONAL\s+)?(?:ARRAY\s+)?WRAPPER)\b/i.exec(textOf(scope.sql, call));
    if (clause) {
      const nearest = /^RETURNING/i.test(clause[1]) ? `CAST(${name}(…) AS ${clause[1].split(/\s+/)[1]})` : /ON/i.test(clause[1]) ? `COALESCE(${name}(…), default)` : `${name}(…) without it (no wrapper)`;
      fail(t, `${name}(… ${clause[1].replace(/\s+/g, ' ')})`, `Weir reads ${name}(value, path) with Flink's defaults (NULL ON EMPTY, NULL ON ERROR); write ${nearest}`);
    }
  }
  return null;
}

/** IS [NOT] TRUE/FALSE/UNKNOWN/JSON, BETWEEN SYMMETRIC, LIKE … ESCAPE and SIMILAR TO. */
function predicate(t: Tree, scope: Scope, r: (x: Tree) => string): string | null {
  const pred = childOf(t, 'predicate');
  if (!pred) return null;
  const like = childOf(pred, 'likePredicate');
  const kw = keywordsOf(like ?? pred);
  const not = kw.includes('NOT');
  const subject = () => `(${r(kids(t)[0])})`;
  if (kw[0] === 'IS') {
    const what = kw.find((k) => k === 'TRUE' || k === 'FALSE' || k === 'UNKNOWN' || k === 'JSON');
    if (!what) return null;
    const a = subject();
    // Two-valued tests of a three-valued value: NULL IS TRUE is FALSE, NULL IS NOT TRUE is TRUE.
    if (what === 'TRUE') return not ? `(NOT COALESCE(${a}, FALSE))` : `COALESCE(${a}, FALSE)`;
    if (what === 'FALSE') return not ? `COALESCE(${a}, TRUE)` : `(NOT COALESCE(${a}, TRUE))`;
    if (what === 'UNKNOWN') return `${a} IS ${not ? 'NOT ' : ''}NULL`;
    // The kind may lex as a keyword (ARRAY) or a name (OBJECT): the word after JSON, either way.
    const ks = kids(pred);
    const kind = ks[ks.findIndex((k) => k.symbol?.text?.toUpperCase() === 'JSON') + 1]?.getText().toUpperCase();
    return `${not ? 'NOT ' : ''}${a} IS JSON${kind ? ` ${kind}` : ''}`;
  }
  if (kw.includes('SIMILAR') || kw.includes('ESCAPE')) {
    const similar = kw.includes('SIMILAR');
    const construct = similar ? 'SIMILAR TO' : 'LIKE … ESCAPE';
    const [patternAt, escapeAt] = kids(like ?? pred).filter((k) => !k.symbol);
    const pattern = constantValue(patternAt, scope, `${construct} pattern`);
    const escape = escapeAt ? constantValue(escapeAt, scope, 'ESCAPE') : null;
    if (typeof pattern !== 'string' || (escape !== null && typeof escape !== 'string')) fail(patternAt, construct, 'the pattern and the escape character must be text constants');
    let re: string;
    try {
      re = similar ? similarRegex(pattern, escape) : likeRegex(pattern, escape);
    } catch (err) {
      return fail(t, construct, err instanceof PatternError ? err.message : String(err));
    }
    return `(${not ? 'NOT ' : ''}REGEXP(${r(kids(t)[0])}, ${sqlText(re)}))`;
  }
  if (kw.includes('BETWEEN') && kw.includes('SYMMETRIC')) {
    const [lo, hi] = kids(pred).filter((k) => !k.symbol).map(r);
    return `(${subject()} ${not ? 'NOT ' : ''}BETWEEN LEAST(${lo}, ${hi}) AND GREATEST(${lo}, ${hi}))`;
  }
  return null;
}

/**
 * JSON_OBJECT([KEY] 'k' VALUE v, … [NULL|ABSENT ON NULL]) and JSON_ARRAY(v, … [… ON NULL]). The
 * grammar hangs the entries and the NULL clause on its parameters in several shapes, so each
 * parameter is read for its value (after VALUE in an object) and the clause from the call's end.
 */
function jsonConstructor(t: Tree, name: string, args: Tree[], scope: Scope, r: (x: Tree) => string): string {
  const entries = args.map((param) => {
    const inner = kids(param).length === 1 && !kids(param)[0].symbol ? kids(param)[0] : param;
    const parts = kids(inner);
    const at = parts.findIndex((k) => k.symbol?.text?.toUpperCase() === 'VALUE');
    if (name === 'JSON_ARRAY') return r(ruleOf(inner) === 'jsonArrayParams' ? parts[0] : inner);
    const key = at > 0 ? parts[at - 1] : null;
    const keyText = key ? textOf(scope.sql, key).trim() : '';
    if (!key || !/^'(?:[^']|'')*'$/.test(keyText)) fail(param, 'JSON_OBJECT(…)', "each entry of JSON_OBJECT is KEY 'name' VALUE value, with the key a quoted string");
    return `KEY ${keyText} VALUE ${r(parts[at + 1])}`;
  });
  const onNull = /\b(NULL|ABSENT)\s+ON\s+NULL\s*\)\s*$/i.exec(textOf(scope.sql, t));
  return `${name}(${entries.join(', ')}${onNull ? `${entries.length ? ' ' : ''}${onNull[1].toUpperCase()} ON NULL` : ''})`;
}
