import type { ReactNode } from 'react';
import { useStore } from '../store/createStore.ts';
import { useT } from '../i18n/i18n.ts';
import { isSelected, lineageStore, showLineage } from './lineageStore.ts';
import type { ColumnRef } from '../../pipeline/lineage/columnLineage.ts';
import { fitNodes } from '../canvas/canvasBridge.ts';
import './lineage.css';

/**
 * A column name that shows the column's lineage on the canvas when clicked (and ends it when clicked again).
 * Its accessible name stays the column's, so a table header still reads as its column; the title says what it does.
 */
export function ColumnLineageButton({ column, className, children }: { column: ColumnRef; className?: string; children?: ReactNode }) {
  const t = useT();
  const on = useStore(lineageStore, (s) => isSelected(s, column));
  return (
    <button
      type="button"
      className={`lineage-col${on ? ' on' : ''}${className ? ` ${className}` : ''}`}
      aria-pressed={on}
      title={t('lineage.show', { column: column.column })}
      onClick={(e) => {
        e.stopPropagation();
        showLineage(column);
        // The path is the answer: bring it into view on the canvas.
        const trace = lineageStore.get().trace;
        if (trace) requestAnimationFrame(() => fitNodes([...trace.nodes]));
      }}
    >
      {children ?? column.column}
    </button>
  );
}
