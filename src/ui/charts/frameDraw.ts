/**
 * Draws only the newest value, at most once per animation frame: a chart given new data several
 * times between two frames redraws its canvas (axes, grid and text included) once, just before the
 * frame is painted, instead of once per update in whatever task brought it.
 */
export interface FrameDraw<T> {
  /** The newest value; drawn at the next frame unless a newer one comes first. */
  push(value: T): void;
  /** The drawing now shows `value` (a chart built with it): a frame still pending for it is skipped. */
  drawn(value: T): void;
  dispose(): void;
}

export function frameDraw<T>(draw: (value: T) => void, schedule: (run: () => void) => number = requestAnimationFrame, cancel: (id: number) => void = cancelAnimationFrame): FrameDraw<T> {
  let frame = 0;
  let shown: { value: T } | null = null;
  let next: { value: T } | null = null;
  return {
    push(value) {
      next = { value };
      if (frame) return;
      frame = schedule(() => {
        frame = 0;
        const v = next;
        next = null;
        if (!v || (shown && shown.value === v.value)) return;
        shown = v;
        draw(v.value);
      });
    },
    drawn(value) {
      shown = { value };
    },
    dispose() {
      if (frame) cancel(frame);
      frame = 0;
      next = null;
    },
  };
}
