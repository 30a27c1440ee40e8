import { useEffect, useLayoutEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import './charts.css';
import { frameDraw } from './frameDraw.ts';
import type { FrameDraw } from './frameDraw.ts';

export type { AlignedData, Options } from 'uplot';

/** Colours that stay apart on the light and the dark theme; the eleventh is "other". */
export const SERIES_COLOURS = ['#3b6cf6', '#e8590c', '#1f8a4c', '#c2255c', '#7c3aed', '#0c8599', '#b76e00', '#5c7cfa', '#d6336c', '#2b8a3e', '#868e96'];

/** A colour from the theme, so axes and grid follow light and dark. */
export const themeColour = (name: string, fallback: string): string => (typeof document === 'undefined' ? fallback : getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback);

/**
 * One uPlot instance for as long as `shape` stays the same (series, scales, type); new data only
 * goes through setData, so a chart that updates 20 times a second never rebuilds its canvas, and
 * at most once per animation frame (frameDraw), so updates between two frames redraw it once.
 * `opts` is read when the shape changes, `data` on every render.
 */
export function UplotChart({ shape, opts, data, label, className }: { shape: string; opts: (width: number, height: number) => uPlot.Options; data: uPlot.AlignedData; label: string; className?: string }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const latest = useRef({ opts, data });
  latest.current = { opts, data };
  const redraw = useRef<FrameDraw<uPlot.AlignedData> | null>(null);
  redraw.current ??= frameDraw((d) => plot.current?.setData(d));
  useEffect(() => () => redraw.current?.dispose(), []);

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const size = () => ({ width: Math.max(60, el.clientWidth), height: Math.max(24, el.clientHeight) });
    const { width, height } = size();
    const u = new uPlot(latest.current.opts(width, height), latest.current.data, el);
    plot.current = u;
    redraw.current?.drawn(latest.current.data);
    const ro = new ResizeObserver(() => {
      const s = size();
      if (s.width !== u.width || s.height !== u.height) u.setSize(s);
    });
    ro.observe(el);
    return () => {
      ro.disconnect();
      u.destroy();
      plot.current = null;
    };
  }, [shape]);

  useEffect(() => {
    redraw.current?.push(data);
  }, [data]);

  return <div ref={box} className={`uplot-box${className ? ` ${className}` : ''}`} role="img" aria-label={label} />;
}
