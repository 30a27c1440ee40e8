import { fitView } from '../canvas/canvasBridge.ts';

/** Fits the view once React Flow has measured the new nodes. */
export function fitSoon(): void {
  setTimeout(() => requestAnimationFrame(() => fitView()), 60);
}
