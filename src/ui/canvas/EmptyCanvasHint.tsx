import { setUi } from '../store/uiStore.ts';

export function EmptyCanvasHint() {
  return (
    <div className="empty-hint" role="note">
      <div className="empty-hint-title">An empty pipeline</div>
      <p>Drag an operator from the palette, or focus one and press Enter. Start with a source on the left and end with a sink.</p>
      <button type="button" className="btn" onClick={() => setUi({ dialog: 'gallery' })}>
        Open an example
      </button>
    </div>
  );
}
