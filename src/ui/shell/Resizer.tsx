import { useRef } from 'react';

interface Props {
  label: string;
  /** 'x': drags left/right (a side panel), 'y': up/down (the bottom panel). */
  axis: 'x' | 'y';
  /** +1 when dragging right/down grows the panel, -1 when it shrinks it. */
  sign: 1 | -1;
  value: number;
  limits: readonly [number, number];
  onChange(v: number): void;
  className?: string;
}

/** A separator to drag (or move with the arrow keys) that resizes the panel beside it. */
export function Resizer({ label, axis, sign, value, limits, onChange, className = '' }: Props) {
  const start = useRef<{ at: number; value: number } | null>(null);
  const clamp = (v: number) => Math.round(Math.min(limits[1], Math.max(limits[0], v)));
  const pos = (e: React.PointerEvent) => (axis === 'x' ? e.clientX : e.clientY);
  return (
    <div
      role="separator"
      aria-label={label}
      aria-orientation={axis === 'x' ? 'vertical' : 'horizontal'}
      aria-valuenow={value}
      aria-valuemin={limits[0]}
      aria-valuemax={limits[1]}
      tabIndex={0}
      className={`resizer resizer-${axis} ${className}`}
      onPointerDown={(e) => {
        e.currentTarget.setPointerCapture(e.pointerId);
        start.current = { at: pos(e), value };
      }}
      onPointerMove={(e) => {
        if (start.current) onChange(clamp(start.current.value + sign * (pos(e) - start.current.at)));
      }}
      onPointerUp={() => (start.current = null)}
      onKeyDown={(e) => {
        const grow: Record<string, number> = axis === 'x' ? { ArrowRight: sign, ArrowLeft: -sign } : { ArrowDown: sign, ArrowUp: -sign };
        const d = grow[e.key];
        if (d) {
          e.preventDefault();
          onChange(clamp(value + d * (e.shiftKey ? 48 : 16)));
        }
      }}
    />
  );
}
