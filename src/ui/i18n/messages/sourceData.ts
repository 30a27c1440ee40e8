import type { MessageArea } from '../i18n.ts';

/** Bringing your own rows into an inline source: paste, pick or drop, confirm types. */
const messages: MessageArea = {
  en: {
    'sourceData.title': 'Your data',
    'sourceData.pasteLabel': 'Rows to paste (CSV, TSV or JSON)',
    'sourceData.placeholder': 'Paste CSV or TSV with a header, a JSON array or JSON Lines — or drop a file here',
    'sourceData.read': 'Read rows',
    'sourceData.pick': 'Choose file…',
    'sourceData.tooLarge': '{name} is {mb} MB: too large to keep inside the pipeline. Use a Data file source and run it with weir run --input.',
    'sourceData.found': '{rows} rows read as {format}; {bad} line(s) could not be read. Confirm the types:',
    'sourceData.badLine': 'line {line}: {reason}',
    'sourceData.typeOf': 'Type of {field}',
    'sourceData.eventTime': 'Event-time field',
    'sourceData.noEventTime': '(none: processing order only)',
    'sourceData.delay': 'Watermark delay (ms)',
    'sourceData.apply': 'Use these {rows} rows',
  },
  'zh-TW': {
    'sourceData.title': '你的資料',
    'sourceData.pasteLabel': '要貼上的資料列（CSV、TSV 或 JSON）',
    'sourceData.placeholder': '貼上有標題列的 CSV 或 TSV、JSON 陣列或 JSON Lines，或把檔案拖放到這裡',
    'sourceData.read': '讀取資料列',
    'sourceData.pick': '選擇檔案…',
    'sourceData.tooLarge': '{name} 有 {mb} MB，太大了，無法放進 pipeline 裡。請改用資料檔案 source，並以 weir run --input 執行。',
    'sourceData.found': '以 {format} 讀到 {rows} 筆資料；{bad} 行無法讀取。請確認型別：',
    'sourceData.badLine': '第 {line} 行：{reason}',
    'sourceData.typeOf': '{field} 的型別',
    'sourceData.eventTime': 'Event time 欄位',
    'sourceData.noEventTime': '（無：只依處理順序）',
    'sourceData.delay': 'Watermark 延遲（毫秒）',
    'sourceData.apply': '使用這 {rows} 筆資料',
  },
};

export default messages;
