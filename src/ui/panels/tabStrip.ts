/**
 * The output panel's tab strip scrolls sideways when its tabs do not fit. Its left edge always falls
 * on the start of a tab, so no label is shown cut at the left (a half-hidden "State" read "tate").
 */
export interface TabSpan {
  start: number;
  end: number;
}

/**
 * The scroll offset that brings tab `chosen` whole into a strip `width` wide, moving as little as
 * possible from `scrollLeft`, and starting at a tab's left edge.
 */
export function alignedScroll(tabs: readonly TabSpan[], chosen: number, scrollLeft: number, width: number): number {
  const on = tabs[chosen];
  if (!on) return scrollLeft;
  const starts = tabs.map((t) => t.start);
  // The first tab start at or before the current offset (the tab cut at the left, if any, comes in whole).
  let left = Math.max(0, ...starts.filter((s) => s <= scrollLeft + 0.5));
  if (on.start < left) left = on.start;
  else if (on.end > left + width) left = starts.find((s) => s >= on.end - width - 0.5 && s <= on.start) ?? on.start;
  return left;
}

/** Indexes of the tabs only partly inside the view [scrollLeft, scrollLeft + width]. */
export function cutTabs(tabs: readonly TabSpan[], scrollLeft: number, width: number): number[] {
  const right = scrollLeft + width;
  return tabs.flatMap((t, i) => ((t.start < scrollLeft - 0.5 && t.end > scrollLeft) || (t.end > right + 0.5 && t.start < right) ? [i] : []));
}
