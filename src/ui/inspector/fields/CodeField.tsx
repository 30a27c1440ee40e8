import { FieldShell } from './FieldShell.tsx';
import type { FieldProps } from './fieldTypes.ts';
import { UdfEditor } from '../../code/UdfEditor.tsx';

/** `x-weir-code` params: a TypeScript editor typed against the input record. */
export function CodeField(p: FieldProps) {
  const param = p.path.replace(/^params\./, '');
  return (
    <FieldShell p={p} asGroup>
      <UdfEditor nodeId={p.nodeId} kind={p.kind} param={param} label={p.name} value={typeof p.value === 'string' ? p.value : ''} onChange={(v) => p.onChange(v === '' && !p.required ? undefined : v)} />
    </FieldShell>
  );
}
