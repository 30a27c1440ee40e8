import type { MessageArea } from '../i18n.ts';

/** The Tests panel: pipeline tests recorded, edited and run in the designer. */
const messages: MessageArea = {
  en: {
    'tests.tab': 'Tests',
    'tests.runAll': 'Run tests',
    'tests.record': 'Record test from run',
    'tests.recordedName': 'recorded test {n}',
    'tests.running': 'Running…',
    'tests.summary': '{passed} passed, {failed} failed',
    'tests.empty': 'No tests yet. Record one from the current run: it pins the first records of each source and what every sink holds. Then edit it to check only what matters.',
    'tests.pass': 'passed',
    'tests.fail': 'failed',
    'tests.notRun': 'not run yet',
    'tests.describe': '{sources} source(s) given · {checks} check(s)',
    'tests.edit': 'Edit',
    'tests.delete': 'Delete',
    'tests.diff': 'Difference: - expected but missing, + present but not expected',
    'tests.editLabel': 'Test {name} as JSON',
    'tests.badJson': 'Not valid JSON: {message}',
    'tests.save': 'Save',
    'tests.cancel': 'Cancel',
  },
  'zh-TW': {
    'tests.tab': '測試',
    'tests.runAll': '執行測試',
    'tests.record': '從這次執行錄製測試',
    'tests.recordedName': '錄製的測試 {n}',
    'tests.running': '執行中…',
    'tests.summary': '{passed} 個通過，{failed} 個失敗',
    'tests.empty': '還沒有測試。從目前的執行錄製一個：它會記下每個 source 的前幾筆資料，以及每個 sink 的內容。之後再編輯它，只檢查重要的部分。',
    'tests.pass': '通過',
    'tests.fail': '失敗',
    'tests.notRun': '尚未執行',
    'tests.describe': '給定 {sources} 個 source · {checks} 項檢查',
    'tests.edit': '編輯',
    'tests.delete': '刪除',
    'tests.diff': '差異：- 預期有但缺少，+ 出現了但不在預期中',
    'tests.editLabel': '測試 {name} 的 JSON',
    'tests.badJson': '不是有效的 JSON：{message}',
    'tests.save': '儲存',
    'tests.cancel': '取消',
  },
};

export default messages;
