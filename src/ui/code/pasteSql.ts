import { useEffect } from 'react';
import { setSqlDraft } from '../store/sqlStore.ts';
import { setUi, toast } from '../store/uiStore.ts';
import { t } from '../i18n/i18n.ts';

/** A Flink SQL script opens with a statement like these, after any comments. */
const SCRIPT_START = /^(?:\s+|--[^\n]*\n|\/\*[\s\S]*?\*\/)*(?:CREATE\s+(?:TEMPORARY\s+)?(?:TABLE|VIEW|FUNCTION)|INSERT\s+INTO|SELECT|WITH|SET|EXECUTE\s+STATEMENT|BEGIN\s+STATEMENT)(?=[\s(;]|$)/i;

export const looksLikeFlinkSql = (text: string): boolean => SCRIPT_START.test(text);

const typingTarget = (el: EventTarget | null): boolean => !!(el as HTMLElement | null)?.closest?.('input, textarea, select, [contenteditable="true"], .monaco-editor');

/** Pasting a script anywhere outside a field opens it in the SQL tab. */
export function usePasteSql(): void {
  useEffect(() => {
    const onPaste = (e: ClipboardEvent) => {
      if (typingTarget(e.target)) return;
      const text = e.clipboardData?.getData('text/plain') ?? '';
      if (!looksLikeFlinkSql(text)) return;
      e.preventDefault();
      setSqlDraft(text);
      setUi({ centerTab: 'sql', dialog: null });
      toast(t('code.sqlPasted'));
    };
    window.addEventListener('paste', onPaste);
    return () => window.removeEventListener('paste', onPaste);
  }, []);
}
