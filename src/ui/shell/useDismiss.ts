import { useEffect, type RefObject } from 'react';

/**
 * Closes an open popover or menu when the pointer goes down outside `box` or Escape is pressed, the
 * way every menu in the app behaves. `onOpen` runs once each time it opens (e.g. to move focus in).
 */
export function useDismiss(open: boolean, close: () => void, box: RefObject<HTMLElement | null>, onOpen?: () => void): void {
  useEffect(() => {
    if (!open) return;
    const away = (e: PointerEvent) => {
      if (!box.current?.contains(e.target as Node)) close();
    };
    const key = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close();
    };
    document.addEventListener('pointerdown', away);
    document.addEventListener('keydown', key);
    onOpen?.();
    return () => {
      document.removeEventListener('pointerdown', away);
      document.removeEventListener('keydown', key);
    };
    // `close` and `onOpen` are fresh closures each render; only opening and closing matter here.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);
}
