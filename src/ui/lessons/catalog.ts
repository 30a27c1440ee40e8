import type { Lesson } from './types.ts';
import { basicLessons } from './catalogBasics.ts';
import { advancedLessons } from './catalogAdvanced.ts';

export const LESSONS: Lesson[] = [...basicLessons, ...advancedLessons];

export const lessonById = (id: string): Lesson | undefined => LESSONS.find((l) => l.id === id);

/** Progress key of one step: stable across reorderings of the text. */
export const stepKey = (lesson: Lesson, index: number): string => `${lesson.id}#${index}`;
