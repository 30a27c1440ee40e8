import { t } from '../i18n/i18n.ts';
import { setUi, toast } from '../store/uiStore.ts';
import { openLesson } from './lessonStore.ts';

/** Opens a lesson from a click; a failure is shown, never swallowed. */
export async function openLessonFromUi(id: string): Promise<boolean> {
  try {
    await openLesson(id);
    setUi({ dialog: null });
    return true;
  } catch (e) {
    toast(t('lessons.loadFailed', { message: e instanceof Error ? e.message : String(e) }));
    return false;
  }
}
