import { PanelHint } from './PanelHint.tsx';
import { StepBar } from './StepBar.tsx';

/** A node tab with nothing to draw yet: the step buttons (which also start the job) and what to do. */
export function NodeHint({ text }: { text: string }) {
  return (
    <div className="obs-panel">
      <div className="obs-bar">
        <StepBar />
      </div>
      <PanelHint text={text} />
    </div>
  );
}
