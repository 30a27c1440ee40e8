import type { editor, IDisposable } from 'monaco-editor';
import type { SqlSpan } from '../../import/flinkSql/index.ts';
import { spanAt } from '../code/sqlSpans.ts';
import { editorStore } from '../store/editorStore.ts';
import { setUi, toast } from '../store/uiStore.ts';
import { t } from '../i18n/i18n.ts';
import { currentGraph, showLineage } from './lineageStore.ts';
import { columnInStatement } from './sqlColumn.ts';

type Monaco = typeof import('monaco-editor');

/**
 * "Show column lineage" in the SQL tab (Alt+L, or the context menu): the name under the cursor, in the
 * statement an operator came from, becomes that operator's column, and the canvas shows its lineage.
 * It needs the spans of an applied script; before Apply, the toast says so.
 */
export function addLineageAction(monaco: Monaco, e: editor.IStandaloneCodeEditor, spans: () => Record<string, SqlSpan> | null): IDisposable {
  return e.addAction({
    id: 'weir.columnLineage',
    label: t('lineage.sqlAction'),
    keybindings: [monaco.KeyMod.Alt | monaco.KeyCode.KeyL],
    contextMenuGroupId: 'navigation',
    run: (ed) => {
      const pos = ed.getPosition();
      const word = pos && ed.getModel()?.getWordAtPosition(pos)?.word;
      if (!pos || !word) return;
      const linked = spans();
      if (!linked) return toast(t('lineage.sqlApplyFirst'));
      const node = spanAt(linked, pos.lineNumber, pos.column);
      const graph = currentGraph();
      const column = graph ? columnInStatement(editorStore.get().doc, graph, node, word) : null;
      if (!column) return toast(t('lineage.sqlNoColumn', { word }));
      showLineage(column);
      setUi({ centerTab: 'canvas' });
    },
  });
}
