import { PanelHint } from './PanelHint.tsx';

/** A node tab with nothing to draw yet: what to do (the toolbar's Step also starts the job). */
export function NodeHint({ text }: { text: string }) {
  return (
    <div className="obs-panel">
      <PanelHint text={text} />
    </div>
  );
}
