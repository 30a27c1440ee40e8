import type { editor } from 'monaco-editor';
import type { StreamInfo } from '../../core/streamInfo.ts';
import type { NodeStreams } from '../../pipeline/compile.ts';
import { modelText, rowTypeDecl, wrapperFor } from './udfWrappers.ts';
import type { ModelText } from './udfWrappers.ts';
import type { UdfSite } from '../../pipeline/udfSites.ts';
import type { loadMonaco } from './loadMonaco.ts';

type M = Awaited<ReturnType<typeof loadMonaco>>['monaco'];

export interface UdfModel {
  model: editor.ITextModel;
  layout: ModelText;
}

/** The stream a UDF sees: its `in` port, or the first input it has. */
export function udfInput(streams: NodeStreams | undefined): StreamInfo | undefined {
  if (!streams) return undefined;
  return streams.inputs.in ?? Object.values(streams.inputs)[0];
}

export const udfUri = (m: M, nodeId: string, param: string) => m.Uri.parse(`file:///weir/udf/${encodeURIComponent(nodeId)}/${param.replace(/[^\w.-]/g, '_')}.ts`);

/**
 * One TypeScript model per code param. The user's code sits between hidden lines that declare
 * `Row` from the inferred input and give the code its contextual type, so completion and
 * checking know the record and the state/timer API.
 */
export function udfModel(m: M, site: Pick<UdfSite, 'nodeId' | 'kind' | 'param' | 'code'>, streams: NodeStreams | undefined): UdfModel {
  const layout = modelText(site.code, rowTypeDecl(udfInput(streams)), wrapperFor(site.kind, site.param));
  const uri = udfUri(m, site.nodeId, site.param);
  let model = m.editor.getModel(uri);
  if (!model) model = m.editor.createModel(layout.text, 'typescript', uri);
  else if (model.getValue() !== layout.text) model.setValue(layout.text);
  return { model, layout };
}
