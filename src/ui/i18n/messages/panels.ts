import type { MessageArea } from '../i18n.ts';

/** The bottom panels: results, changelog, log. */
const messages: MessageArea = {
  en: {
    'panels.log': 'Log',
    'panels.logEmpty': 'Nothing logged yet. Run the pipeline to see what happens.',
    'panels.level.info': 'info',
    'panels.level.warn': 'warn',
    'panels.level.error': 'error',
    'panels.changelog': 'Changelog',
    'panels.noChanges': 'No changes yet.',
    'panels.noSinks': 'Add a sink (Materialized view, Log or Collect) to see results here.',
    'panels.sinks': 'Sinks',
    'panels.resultView': 'Result view',
    'panels.table': 'Table',
    'panels.chart': 'Chart',
    'panels.rowsChanges': '{rows} rows · {changes} changes',
    'panels.runToFill': 'Run the pipeline to fill this table.',
    'panels.rowsOf': 'Rows of {sink}',
  },
  'zh-TW': {
    'panels.log': 'Log',
    'panels.logEmpty': '還沒有任何記錄。執行 pipeline 看看會發生什麼。',
    'panels.level.info': '資訊',
    'panels.level.warn': '警告',
    'panels.level.error': '錯誤',
    'panels.changelog': 'Changelog',
    'panels.noChanges': '還沒有變更。',
    'panels.noSinks': '加入一個 sink（具體化檢視、Log 輸出或收集）即可在這裡看到結果。',
    'panels.sinks': 'Sink',
    'panels.resultView': '結果檢視',
    'panels.table': '資料表',
    'panels.chart': '圖表',
    'panels.rowsChanges': '{rows} 列 · {changes} 次變更',
    'panels.runToFill': '執行 pipeline 來填入這張表。',
    'panels.rowsOf': '{sink} 的資料列',
  },
};
export default messages;
