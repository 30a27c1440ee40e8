import type { MessageArea } from '../i18n.ts';

/** The problems list around the compiler's messages, which stay in English (they come from the pure compiler). */
const messages: MessageArea = {
  en: {
    'validation.problems': 'Problems',
    'validation.emptyPipeline': 'Nothing to check yet: the pipeline is empty.',
    'validation.noProblems': '✓ No problems. The pipeline is ready to run.',
    'validation.pipeline': 'pipeline',
    'validation.typeScript': 'TypeScript (line {line}, col {column}): {message}',
  },
  'zh-TW': {
    'validation.problems': '問題',
    'validation.emptyPipeline': '還沒有東西可檢查：pipeline 是空的。',
    'validation.noProblems': '✓ 沒有問題。Pipeline 可以執行了。',
    'validation.pipeline': 'pipeline',
    'validation.typeScript': 'TypeScript（第 {line} 行，第 {column} 欄）：{message}',
  },
};
export default messages;
