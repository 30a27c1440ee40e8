/**
 * Functions that return one object literal of known field names, compiled once per shape (and
 * `compiledFunction`, other code compiled once per operator). V8
 * allocates a literal with its final hidden class at once: about 4× faster than adding the fields
 * one by one to `{}`, where every field is a keyed store and a shape transition. Field names enter
 * the source only as JSON string literals; values are JS text the caller builds from its own
 * parameter and `locals` names (a `"__proto__"` key sets the prototype, as assigning it does). Null where code
 * generation is not allowed (a strict content security policy): the caller then builds rows field
 * by field.
 */
let allowed = true;

export function objectLiteralFunction<F extends (...args: never[]) => object>(params: readonly string[], fields: readonly string[], valueAt: (k: number) => string, locals: readonly string[] = []): F | null {
  return compiledFunction<F>(params, `return {${fields.map((f, k) => `${JSON.stringify(f)}: ${valueAt(k)}`).join(', ')}};`, locals);
}

/** A function of `params` whose body is `body` after `let locals`; null where code generation is not allowed. */
export function compiledFunction<F extends (...args: never[]) => unknown>(params: readonly string[], body: string, locals: readonly string[] = []): F | null {
  if (!allowed) return null;
  const declared = locals.length ? `let ${locals.join(', ')}; ` : '';
  try {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    return new Function(...params, declared + body) as F;
  } catch {
    allowed = false;
    return null;
  }
}
