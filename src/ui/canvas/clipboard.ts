import { copyFragment } from '../actions/clipboardActions.ts';
import type { Fragment } from '../actions/clipboardActions.ts';
import { editorStore } from '../store/editorStore.ts';
import { toast } from '../store/uiStore.ts';
import { t } from '../i18n/i18n.ts';
import { plural } from '../i18n/plural.ts';

// The system clipboard needs permission to read; the editor keeps its own copy and also writes
// the JSON out so a fragment can be pasted into a text file or another tab.
let held: { fragment: Fragment; times: number } | null = null;

export function copySelection(): void {
  const frag = copyFragment(editorStore.get());
  if (!frag) return;
  held = { fragment: frag, times: 0 };
  void navigator.clipboard?.writeText(JSON.stringify(frag, null, 2)).catch(() => undefined);
  toast(plural(t, 'canvas.copied', frag.nodes.length));
}

/** Each paste of the same copy lands a little further along, like most canvas editors. */
export function readClipboard(): { fragment: Fragment; times: number } | null {
  if (!held) return null;
  held.times++;
  return held;
}

