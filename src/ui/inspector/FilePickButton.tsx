import { useRef } from 'react';
import { useT } from '../i18n/i18n.ts';

/** A real button (focusable, Enter/Space) that opens the browser's file picker. */
export function FilePickButton({ accept, onFile, label }: { accept: string; onFile(f: File): void; label?: string }) {
  const t = useT();
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" className="btn-small" onClick={() => input.current?.click()}>{label ?? t('sourceData.pick')}</button>
      <input
        ref={input}
        type="file"
        accept={accept}
        hidden
        tabIndex={-1}
        onChange={(e) => {
          const f = e.target.files?.[0];
          e.target.value = '';
          if (f) onFile(f);
        }}
      />
    </>
  );
}
