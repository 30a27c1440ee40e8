import { kindSpecs } from './kinds/index.ts';
import { KIND_GROUPS } from './kindSpec.ts';
import type { JsonSchema, KindSpec } from './kindSpec.ts';
import { FORMAT_DOC_INTRO } from './formatDocIntro.ts';

function typeText(s: JsonSchema): string {
  if (Array.isArray(s.enum)) return s.enum.map((v) => `\`${JSON.stringify(v)}\``).join(' \\| ');
  if (s.type === 'array') {
    const items = (s.items ?? {}) as JsonSchema;
    return `array of ${items.type === 'object' ? 'objects' : typeText(items)}`;
  }
  if (s['x-weir-code']) return 'code (JS/TS)';
  if (s['x-weir-expr']) return 'SQL expression';
  if (Array.isArray(s.type)) return s.type.join(' \\| ');
  return String(s.type ?? 'any');
}

function paramRows(schema: JsonSchema): string[] {
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(props).map(([name, p]) => {
    const unit = p['x-weir-unit'] ? ` (${p['x-weir-unit']})` : '';
    let desc = String(p.description ?? '').replace(/\|/g, '\\|');
    const sub = p.type === 'array' ? ((p.items ?? {}) as JsonSchema) : p;
    if (sub.type === 'object' && sub.properties) desc += ` Fields: ${Object.keys(sub.properties as object).map((k) => `\`${k}\``).join(', ')}.`;
    return `| \`${name}\` | ${typeText(p)}${unit} | ${required.has(name) ? 'yes' : 'no'} | ${desc.trim()} |`;
  });
}

function kindSection(s: KindSpec): string {
  const ports = (list: KindSpec['inputs'], dir: string) =>
    list.length ? list.map((p) => `- ${dir} \`${p.name}\`${p.multiple ? ' (*many*)' : ''}${p.keyed ? ' (*must be keyed*)' : ''}${p.broadcast ? ' (*broadcast*)' : ''}${p.optional ? ' (*optional*)' : ''}: ${p.doc}`).join('\n') : `- no ${dir === 'in' ? 'inputs' : 'outputs'}`;
  const oneOf = Array.isArray(s.params.oneOf) ? `\nExactly one of ${(s.params.oneOf as JsonSchema[]).map((o) => `\`${(o.required as string[]).join('`+`')}\``).join(', ')} must be set.\n` : '';
  return [
    `#### \`${s.kind}\` — ${s.title}`,
    '',
    `${s.summary}${s.stateful ? ' *Stateful.*' : ''}`,
    '',
    s.semantics,
    '',
    ports(s.inputs, 'in'),
    ports(s.outputs, 'out'),
    '',
    '| param | type | required | meaning |',
    '|---|---|---|---|',
    ...paramRows(s.params),
    oneOf,
    'Example:',
    '',
    '```json',
    JSON.stringify({ id: s.kind.toLowerCase(), kind: s.kind, params: s.example }, null, 2),
    '```',
    '',
  ].join('\n');
}

export function renderFormatDoc(): string {
  const parts = [FORMAT_DOC_INTRO];
  for (const g of KIND_GROUPS) {
    const specs = kindSpecs.filter((s) => s.group === g.group);
    if (!specs.length) continue;
    parts.push(`\n### ${g.title}\n`);
    for (const s of specs) parts.push(kindSection(s));
  }
  return parts.join('\n');
}
