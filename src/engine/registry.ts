import type { OperatorDefinition } from './operator.ts';
import type { SourceDefinition } from '../core/source.ts';
import { operatorDefinitions, sourceDefinitions } from './operators/index.ts';

const operators = new Map<string, OperatorDefinition>(operatorDefinitions.map((d) => [d.kind, d as OperatorDefinition]));
const sources = new Map<string, SourceDefinition>(sourceDefinitions.map((d) => [d.kind, d as SourceDefinition]));

export function operatorDefinition(kind: string): OperatorDefinition {
  const d = operators.get(kind);
  if (!d) throw new Error(`no engine implementation for operator kind "${kind}"`);
  return d;
}

export function sourceDefinition(kind: string): SourceDefinition {
  const d = sources.get(kind);
  if (!d) throw new Error(`no engine implementation for source kind "${kind}"`);
  return d;
}

export const isSourceKind = (kind: string): boolean => sources.has(kind);
export const engineKinds = (): string[] => [...sources.keys(), ...operators.keys()];
