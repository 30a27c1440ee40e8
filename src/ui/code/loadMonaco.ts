type MonacoModule = typeof import('./monacoSetup.ts');

let pending: Promise<MonacoModule> | null = null;

/** Loads Monaco once, on first need; later calls share the same promise. */
export function loadMonaco(): Promise<MonacoModule> {
  pending ??= import('./monacoSetup.ts').then(async (m) => {
    await m.registerPipelineSchema();
    return m;
  });
  return pending;
}

export const monacoLoaded = (): boolean => pending !== null;
