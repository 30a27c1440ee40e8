import type { PipelineDocument } from '../../pipeline/document.ts';
import type { Problem } from '../../pipeline/kindSpec.ts';
import type { NodeStreams } from '../../pipeline/compile.ts';
import { loadMonaco } from './loadMonaco.ts';
import { udfModel } from './udfModels.ts';
import type { UdfModel } from './udfModels.ts';
import { udfSites } from '../../pipeline/udfSites.ts';
import { t } from '../i18n/i18n.ts';

export interface UdfDiag {
  /** 1-based line and column in the user's code. */
  line: number;
  column: number;
  message: string;
  severity: 'error' | 'warning';
}

type Chain = string | { messageText: string; next?: Chain[] };
const flatten = (c: Chain): string => (typeof c === 'string' ? c : [c.messageText, ...(c.next ?? []).map(flatten)].join(' '));

type Monaco = Awaited<ReturnType<typeof loadMonaco>>['monaco'];

/** Monaco sets up its TypeScript service lazily, after the first model; until then it says "not registered". */
async function tsWorker(monaco: Monaco) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await monaco.typescript.getTypeScriptWorker();
    } catch (e) {
      if (attempt >= 100) throw new Error(`the TypeScript checker did not start: ${String(e)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Type-checks one UDF model; problems in the hidden lines are reported at the start of the code. */
export async function diagnose(u: UdfModel): Promise<UdfDiag[]> {
  const { monaco } = await loadMonaco();
  const getWorker = await tsWorker(monaco);
  const client = await getWorker(u.model.uri);
  const name = u.model.uri.toString();
  const raw = [...(await client.getSyntacticDiagnostics(name)), ...(await client.getSemanticDiagnostics(name))];
  if (u.model.isDisposed()) return [];
  const lastUserLine = u.model.getLineCount() - u.layout.tailLines;
  return raw
    .filter((d) => d.category === 0 || d.category === 1)
    .map((d) => {
      const pos = u.model.getPositionAt(d.start ?? 0);
      const inside = pos.lineNumber > u.layout.headLines && pos.lineNumber <= lastUserLine;
      return {
        line: inside ? pos.lineNumber - u.layout.headLines : 1,
        column: inside ? pos.column : 1,
        message: flatten(d.messageText as Chain),
        severity: d.category === 1 ? ('error' as const) : ('warning' as const),
      };
    });
}

/** Every UDF in the document, checked before a run: the problems that block it. */
export const typeProblem = (nodeId: string, param: string, d: UdfDiag): Problem => ({
  target: nodeId,
  targetType: 'node',
  field: `params.${param}`,
  message: t('validation.typeScript', { line: d.line, column: d.column, message: d.message }),
  code: 'udf-type-error',
});

export async function checkAllUdfs(doc: PipelineDocument, streams: Record<string, NodeStreams>): Promise<Problem[]> {
  const sites = udfSites(doc);
  if (!sites.length) return [];
  const { monaco } = await loadMonaco();
  const problems: Problem[] = [];
  for (const site of sites) {
    const diags = await diagnose(udfModel(monaco, site, streams[site.nodeId]));
    for (const d of diags.filter((x) => x.severity === 'error')) problems.push(typeProblem(site.nodeId, site.param, d));
  }
  return problems;
}
