/** What a panel shows while it has nothing to draw: one sentence that says what to do. */
export function PanelHint({ text }: { text: string }) {
  return <div className="panel-empty obs-hint">{text}</div>;
}
