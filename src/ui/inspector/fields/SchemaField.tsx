import type { FieldProps } from './fieldTypes.ts';
import { schemaOf } from './fieldTypes.ts';
import { BoolField, EnumField, ExprField, NumberField, StringField } from './scalarFields.tsx';
import { TagsField } from './TagsField.tsx';
import { JsonField } from './JsonField.tsx';
import { ObjectField } from './ObjectField.tsx';
import { RowsField } from './RowsField.tsx';
import { MapField } from './MapField.tsx';
import { OneOfField } from './OneOfField.tsx';
import { CodeField } from './CodeField.tsx';

/** Picks the control for one JSON Schema fragment; anything unusual falls back to JSON text. */
export function SchemaField(p: FieldProps) {
  const s = p.schema;
  if (s.const !== undefined) return null;
  if (s['x-weir-code']) return <CodeField {...p} />;
  if (Array.isArray(s.oneOf) && s.type === undefined && !s.properties) return <OneOfField {...p} />;
  if (Array.isArray(s.enum)) return <EnumField {...p} />;
  if (s.type === undefined && s.properties) return <ObjectField {...p} />;
  switch (s.type) {
    case 'string':
      return s['x-weir-expr'] ? <ExprField {...p} /> : <StringField {...p} />;
    case 'number':
    case 'integer':
      return <NumberField {...p} />;
    case 'boolean':
      return <BoolField {...p} />;
    case 'array': {
      const items = schemaOf(s.items);
      if (items.type === 'string' && !items.enum && !items['x-weir-code']) return <TagsField {...p} />;
      if (items.type === 'object' && items.properties) return <RowsField {...p} />;
      return <JsonField {...p} />;
    }
    case 'object':
      if (s.properties) return <ObjectField {...p} />;
      if (s.additionalProperties && typeof s.additionalProperties === 'object') return <MapField {...p} />;
      return <JsonField {...p} />;
    default:
      return <JsonField {...p} />;
  }
}
