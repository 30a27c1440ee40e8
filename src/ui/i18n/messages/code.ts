import type { MessageArea } from '../i18n.ts';

/** The Pipeline JSON tab and the code (UDF) editors. */
const messages: MessageArea = {
  en: {
    'code.jsonEditor': 'Pipeline JSON',
    'code.jsonStatus': 'JSON status',
    'code.inSync': 'In sync with the canvas',
    'code.applied': 'Applied to the canvas',
    'code.notApplied': 'Not applied: {message}',
    'code.selectAll': 'Select all code',
    'code.diagnostics': '{label} diagnostics',
    'code.checking': 'Checking types…',
    'code.noErrors': '✓ No type errors',
  },
  'zh-TW': {
    'code.jsonEditor': 'Pipeline JSON',
    'code.jsonStatus': 'JSON 狀態',
    'code.inSync': '與畫布同步',
    'code.applied': '已套用到畫布',
    'code.notApplied': '未套用：{message}',
    'code.selectAll': '選取全部程式碼',
    'code.diagnostics': '{label} 診斷訊息',
    'code.checking': '正在檢查型別…',
    'code.noErrors': '✓ 沒有型別錯誤',
  },
};
export default messages;
