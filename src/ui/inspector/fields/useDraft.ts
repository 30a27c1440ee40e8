import { useEffect, useRef, useState } from 'react';

/**
 * Text a person is typing, kept locally while the field has focus so that half-typed values
 * ("1.", "-") survive; outside edits (undo, JSON tab) replace it when the field is idle.
 */
export function useDraft(external: string): { text: string; setText(t: string): void; focus(): void; blur(): void } {
  const [text, setText] = useState(external);
  const focused = useRef(false);
  useEffect(() => {
    if (!focused.current) setText(external);
  }, [external]);
  return {
    text,
    setText,
    focus: () => void (focused.current = true),
    blur: () => {
      focused.current = false;
      setText(external);
    },
  };
}
