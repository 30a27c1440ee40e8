/** Glossary terms: each names the lesson that explains it. Texts: messages/glossary.ts (`glossary.<id>.term|def`). */
export const GLOSSARY = {
  state: 'stateless-stateful',
  changelog: 'streams-tables',
  materializedView: 'streams-tables',
  retraction: 'joins',
  watermark: 'windows',
  windowPane: 'windows',
  lateRecord: 'windows',
  stateBackend: 'state-backends',
  incremental: 'state-backends',
  checkpoint: 'checkpoints',
  barrier: 'checkpoints',
  alignment: 'checkpoints',
  exactlyOnce: 'checkpoints',
  subtask: 'scaling',
  keyGroup: 'scaling',
  ttl: 'state-ttl',
  medallion: 'medallion',
} as const satisfies Record<string, string>;

export type TermId = keyof typeof GLOSSARY;
export const isTermId = (id: string): id is TermId => Object.hasOwn(GLOSSARY, id);
