import { useStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import { ColumnLineageButton } from './ColumnLineageButton.tsx';
import { sinkColumn } from './lineageStore.ts';

/** A results-table column header: clicking it shows on the canvas how the sink's column was computed. */
export function SinkColumnHeader({ sink, column }: { sink: string; column: string }) {
  const doc = useStore(editorStore, (s) => s.doc);
  return <ColumnLineageButton column={sinkColumn(doc, sink, column)} />;
}
