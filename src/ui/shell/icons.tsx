import { FALLBACK_ICON, KIND_ICON_PATHS } from './kindIcons.tsx';

// A few stroke icons drawn inline, so no glyph depends on the fonts a system happens to have.
const base = { width: 14, height: 14, viewBox: '0 0 16 16', 'aria-hidden': true as const };

export const PlayIcon = () => (
  <svg {...base}>
    <path d="M4 2.5v11l9-5.5z" fill="currentColor" />
  </svg>
);
export const PauseIcon = () => (
  <svg {...base}>
    <rect x="3.5" y="2.5" width="3" height="11" rx="1" fill="currentColor" />
    <rect x="9.5" y="2.5" width="3" height="11" rx="1" fill="currentColor" />
  </svg>
);
export const StepIcon = () => (
  <svg {...base}>
    <path d="M3 2.5v11l7-5.5z" fill="currentColor" />
    <rect x="11" y="2.5" width="2.5" height="11" rx="1" fill="currentColor" />
  </svg>
);
export const StepBackIcon = () => (
  <svg {...base}>
    <path d="M13 2.5v11l-7-5.5z" fill="currentColor" />
    <rect x="2.5" y="2.5" width="2.5" height="11" rx="1" fill="currentColor" />
  </svg>
);
export const StopIcon = () => (
  <svg {...base}>
    <rect x="3" y="3" width="10" height="10" rx="1.5" fill="currentColor" />
  </svg>
);
const stroke = { fill: 'none', stroke: 'currentColor', strokeWidth: 1.6, strokeLinecap: 'round' as const, strokeLinejoin: 'round' as const };
export const UndoIcon = () => (
  <svg {...base} width={16} height={16}>
    <path d="M5 4 2 7l3 3" {...stroke} />
    <path d="M2.5 7H10a3.5 3.5 0 0 1 0 7H7" {...stroke} />
  </svg>
);
export const RedoIcon = () => (
  <svg {...base} width={16} height={16}>
    <path d="m11 4 3 3-3 3" {...stroke} />
    <path d="M13.5 7H6a3.5 3.5 0 0 0 0 7h3" {...stroke} />
  </svg>
);
export const LayoutIcon = () => (
  <svg {...base} width={16} height={16}>
    <rect x="1.5" y="6" width="4" height="4" rx="1" {...stroke} />
    <rect x="10.5" y="2" width="4" height="4" rx="1" {...stroke} />
    <rect x="10.5" y="10" width="4" height="4" rx="1" {...stroke} />
    <path d="M5.5 8h2.5M8 4h2.5M8 12h2.5M8 4v8" {...stroke} />
  </svg>
);
export const FitIcon = () => (
  <svg {...base} width={16} height={16}>
    <path d="M2 6V2h4M10 2h4v4M14 10v4h-4M6 14H2v-4" {...stroke} />
  </svg>
);

/** The operator kind's icon for the palette, node header and inspector; decorative, the label carries the name. */
export const KindIcon = ({ kind, size = 16 }: { kind: string; size?: number }) => (
  <svg {...base} width={size} height={size} className="kind-icon" data-kind-icon={kind}>
    <g {...stroke} strokeWidth={1.4}>
      {KIND_ICON_PATHS[kind] ?? FALLBACK_ICON}
    </g>
  </svg>
);

/** The pipeline as a whole: three linked boxes. */
export const PipelineIcon = () => (
  <svg {...base} width={16} height={16}>
    <g {...stroke} strokeWidth={1.4}>
      <rect x="1.5" y="5.5" width="4" height="5" rx="1" />
      <rect x="10.5" y="2" width="4" height="4.5" rx="1" />
      <rect x="10.5" y="9.5" width="4" height="4.5" rx="1" />
      <path d="M5.5 8h2.5v-3.8h2.5M8 8v3.8h2.5" />
    </g>
  </svg>
);
