import type { MessageArea } from '../i18n.ts';

/** Injecting a record into a running source from its inspector. */
const messages: MessageArea = {
  en: {
    'inject.title': 'Inject a record',
    'inject.notLive': 'Run or step the pipeline first; records are injected into the running job.',
    'inject.onWorkers': 'Injecting a record needs the run in one worker: on Web Workers the sources read in other threads. Choose “Run in: one worker” in Settings and run again.',
    'inject.ended': 'The job has ended; run the pipeline again to inject records into it.',
    'inject.noSchema': 'This source declares no columns, so there is no form to fill.',
    'inject.formLabel': 'Record to inject into {node}',
    'inject.eventTime': 'event time',
    'inject.submit': 'Inject record',
    'inject.done': 'Injected {row}. It is part of the source input now: checkpoints, restarts and time travel keep it exactly once.',
    'inject.error.required': 'Required: the source places the record in event time by this field.',
    'inject.error.number': '“{got}” is not a number.',
    'inject.error.integer': '“{got}” is not a whole number.',
    'inject.error.boolean': '“{got}” is not true or false.',
    'inject.error.timestamp': '“{got}” is not a timestamp: write epoch milliseconds or ISO-8601 text.',
    'inject.error.unknownField': 'The source has no column “{field}”.',
  },
  'zh-TW': {
    'inject.title': '注入一筆紀錄',
    'inject.notLive': '請先執行或單步執行 pipeline；紀錄會注入執行中的工作。',
    'inject.onWorkers': '注入 record 需要在單一 worker 中執行：在 Web Workers 上 source 是在其他執行緒中讀取的。請在「設定」中選擇「執行位置：單一 worker」後重新執行。',
    'inject.ended': '工作已結束；請重新執行 pipeline 後再注入紀錄。',
    'inject.noSchema': '這個來源沒有宣告欄位，因此沒有可填的表單。',
    'inject.formLabel': '要注入 {node} 的紀錄',
    'inject.eventTime': '事件時間',
    'inject.submit': '注入紀錄',
    'inject.done': '已注入 {row}。它現在是來源輸入的一部分：checkpoint、重啟與時間旅行都只會保留它一次。',
    'inject.error.required': '必填：來源依這個欄位決定紀錄的事件時間。',
    'inject.error.number': '「{got}」不是數字。',
    'inject.error.integer': '「{got}」不是整數。',
    'inject.error.boolean': '「{got}」不是 true 或 false。',
    'inject.error.timestamp': '「{got}」不是時間戳記：請寫 epoch 毫秒或 ISO-8601 文字。',
    'inject.error.unknownField': '來源沒有「{field}」這個欄位。',
  },
};

export default messages;
