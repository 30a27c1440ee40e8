import type { ReactNode } from 'react';

// One 16×16 stroke drawing per operator kind, in currentColor so they follow the theme.
// Drawn as SVG because glyphs like ⧉ ⧖ ⋈ are missing from common Linux fonts and showed as empty boxes.
export const KIND_ICON_PATHS: Record<string, ReactNode> = {
  inlineSource: (
    <>
      <rect x="2" y="2.5" width="12" height="11" rx="1.5" />
      <path d="M2 6h12M2 9.5h12M6 2.5v11" />
    </>
  ),
  fileSource: (
    <>
      <path d="M4 1.5h5.5L13 5v9.5H4z" />
      <path d="M9.5 1.5V5H13M6.5 8.5h4M6.5 11h4" />
    </>
  ),
  generatorSource: <path d="M1.5 8c1.6-4.5 3.2-4.5 4.3 0s2.7 4.5 4.4 0 3.2-4.5 4.3 0" />,
  feedSource: (
    <>
      <circle cx="3.5" cy="12.5" r="1.3" />
      <path d="M2.5 8.2a5.3 5.3 0 0 1 5.3 5.3M2.5 4a9.5 9.5 0 0 1 9.5 9.5" />
    </>
  ),
  filter: <path d="M2 2.5h12L9.5 8.5v5l-3-1.5v-3.5z" />,
  map: (
    <>
      <circle cx="4" cy="8" r="2.5" />
      <rect x="10" y="5.5" width="5" height="5" rx="1" />
      <path d="M6.5 8H10M8.3 6.2 10 8 8.3 9.8" />
    </>
  ),
  project: (
    <>
      <rect x="1.5" y="2.5" width="13" height="11" rx="1.5" />
      <path d="M5.8 2.5v11M10.2 2.5v11" />
      <path d="M7 5h2v6H7z" fill="currentColor" />
    </>
  ),
  flatMap: <path d="M1.5 8h5M6.5 8l7-5M6.5 8h7M6.5 8l7 5M11.5 2.5l2 .5-.7 1.9M11.8 6.5 13.5 8l-1.7 1.5M12.8 11.1l.7 1.9-2 .5" />,
  unnest: (
    <>
      <path d="M1.5 4.5h2.5M1.5 8h2.5M1.5 11.5h2.5" />
      <rect x="6" y="2" width="8.5" height="3" rx="0.8" />
      <rect x="6" y="6.5" width="8.5" height="3" rx="0.8" />
      <rect x="6" y="11" width="8.5" height="3" rx="0.8" />
    </>
  ),
  union: <path d="M1.5 3.5h3.5a3 3 0 0 1 3 3V8M1.5 12.5h3.5a3 3 0 0 0 3-3V8M8 8h6.5M12.5 6l2 2-2 2" />,
  keyBy: (
    <>
      <circle cx="5" cy="8" r="3" />
      <path d="M8 8h6.5M12 8v2.5M14.5 8v2" />
    </>
  ),
  aggregate: <path d="M12.5 3.5v-1h-9L8 8l-4.5 5.5h9v-1" />,
  dedup: (
    <>
      <rect x="1.5" y="1.5" width="8" height="8" rx="1.2" strokeDasharray="2 1.6" />
      <rect x="6.5" y="6.5" width="8" height="8" rx="1.2" />
    </>
  ),
  topN: <path d="M2.5 14V3M6.5 14V6M10.5 14V9M14 14V11.5M1.5 14h13.5" />,
  // An hourglass: time windows, as the old ⧗ glyph meant.
  window: <path d="M3.5 1.5h9M3.5 14.5h9M4.8 1.5c0 3.6 6.4 3.9 6.4 6.5s-6.4 2.9-6.4 6.5M11.2 1.5c0 3.6-6.4 3.9-6.4 6.5s6.4 2.9 6.4 6.5" />,
  join: <path d="M2 3.5v9l5.5-4.5L2 3.5zM14 3.5v9L8.5 8z" />,
  // A join under a window bracket: rows meet only inside one window.
  windowJoin: (
    <>
      <path d="M3 5v6l4-3zM13 5v6l-4-3z" />
      <path d="M1.5 3.5v-2h13v2M1.5 12.5v2h13v-2" />
    </>
  ),
  // A sliding frame over a row of values: each row sees the rows just before it.
  overAggregate: (
    <>
      <path d="M2 11h1.5M5 11h1.5M8 11h1.5M11 11h1.5" />
      <path d="M4.2 6.5h8.3v7H4.2z" strokeDasharray="2 1.4" />
      <path d="M12.5 3.5 14 2M12.5 3.5 11 2" />
    </>
  ),
  // A join bow tie with one side open: only the left rows come out.
  semiJoin: (
    <>
      <path d="M3 3v10l5-5z" />
      <path d="M13 3 8 8l5 5" />
    </>
  ),
  intervalJoin: (
    <>
      <path d="M3 2.5v7l4.5-3.5zM13 2.5v7L8.5 6z" />
      <path d="M2 12.5h12M2 11v3M14 11v3" />
    </>
  ),
  temporalJoin: (
    <>
      <path d="M1.5 3v8l4.5-4zM10 3v8L5.5 7z" />
      <circle cx="12" cy="11.5" r="3" />
      <path d="M12 10v1.5h1.3" />
    </>
  ),
  lookupJoin: (
    <>
      <path d="M1.5 3v8l4.5-4zM10 3v8L5.5 7z" />
      <circle cx="11.5" cy="11" r="2.5" />
      <path d="M13.3 12.8l1.7 1.7" />
    </>
  ),
  process: (
    <>
      <path d="M5.5 2.5c-1.5 0-2 .7-2 2v1.8L2 8l1.5 1.7v1.8c0 1.3.5 2 2 2M10.5 2.5c1.5 0 2 .7 2 2v1.8L14 8l-1.5 1.7v1.8c0 1.3-.5 2-2 2" />
      <circle cx="8" cy="8" r="1.2" fill="currentColor" />
    </>
  ),
  broadcastProcess: (
    <>
      <circle cx="8" cy="8" r="1.6" fill="currentColor" />
      <path d="M5 5a4.2 4.2 0 0 0 0 6M11 5a4.2 4.2 0 0 1 0 6M2.7 2.7a7.5 7.5 0 0 0 0 10.6M13.3 2.7a7.5 7.5 0 0 1 0 10.6" />
    </>
  ),
  viewSink: (
    <>
      <rect x="1.5" y="2.5" width="13" height="11" rx="1.5" />
      <path d="M1.5 6h13M1.5 9.8h13M6 6v7.5M10.3 6v7.5" />
    </>
  ),
  logSink: <path d="M2 3.5h12M2 6.5h9M2 9.5h12M2 12.5h7" />,
  collectSink: (
    <>
      <path d="M1.5 9.5 3.5 3h9l2 6.5v4h-13z" />
      <path d="M1.5 9.5h4l1 1.7h3l1-1.7h4" />
    </>
  ),
};

/** Stands in for a kind with no drawing yet (a new kind, or an unknown one). */
export const FALLBACK_ICON: ReactNode = (
  <>
    <rect x="2" y="2" width="12" height="12" rx="2.5" />
    <circle cx="8" cy="8" r="1.6" fill="currentColor" />
  </>
);
