import type { MessageArea } from '../i18n.ts';

/** The problems list around the compiler's messages, which stay in English (they come from the pure compiler). */
const messages: MessageArea = {
  en: {
    'validation.problems': 'Problems',
    'validation.emptyPipeline': 'Nothing to check yet: the pipeline is empty.',
    'validation.noProblems': '✓ No problems. The pipeline is ready to run.',
    'validation.noProblemsWarnings': '✓ No problems: the pipeline can run. {n} warning(s) below.',
    'validation.warnings': 'Warnings',
    'validation.warn.danglingOutput': 'The output of {node} goes nowhere: its records are computed and dropped. Connect it to a sink or another operator, or delete {node}.',
    'validation.pipeline': 'pipeline',
    'validation.typeScript': 'TypeScript (line {line}, col {column}): {message}',
  },
  'zh-TW': {
    'validation.problems': '問題',
    'validation.emptyPipeline': '還沒有東西可檢查：pipeline 是空的。',
    'validation.noProblems': '✓ 沒有問題。Pipeline 可以執行了。',
    'validation.noProblemsWarnings': '✓ 沒有問題：pipeline 可以執行。下方有 {n} 則警告。',
    'validation.warnings': '警告',
    'validation.warn.danglingOutput': '{node} 的輸出沒有接到任何地方：它的紀錄算出來之後就被丟掉。請把它接到 sink 或其他運算子，或刪除 {node}。',
    'validation.pipeline': 'pipeline',
    'validation.typeScript': 'TypeScript（第 {line} 行，第 {column} 欄）：{message}',
  },
};
export default messages;
