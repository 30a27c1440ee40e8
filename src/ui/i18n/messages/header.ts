import type { MessageArea } from '../i18n.ts';

/** The app header. */
const messages: MessageArea = {
  en: {
    'header.project': 'Project',
    'header.examples': 'Examples',
    'header.projects': 'Projects',
    'header.openFile': 'Open file',
    'header.download': 'Download',
    'header.share': 'Share link',
    'header.flinkSql': 'Flink SQL',
    'header.lessons': 'Lessons',
    'header.toLight': 'Switch to light theme',
    'header.toDark': 'Switch to dark theme',
    'header.toggleTheme': 'Toggle theme',
    'header.help': 'Help and shortcuts',
    'header.present': 'Present',
    'header.exitPresent': 'Exit presentation',
    'header.presentTitle': 'Presentation mode for teaching: larger type, the canvas and one output tab (Esc leaves it)',
    'header.helpTitle': 'Shortcuts (?)',
  },
  'zh-TW': {
    'header.project': '專案',
    'header.examples': '範例',
    'header.projects': '專案',
    'header.openFile': '開啟檔案',
    'header.download': '下載',
    'header.share': '分享連結',
    'header.flinkSql': 'Flink SQL',
    'header.lessons': '課程',
    'header.toLight': '切換成淺色主題',
    'header.toDark': '切換成深色主題',
    'header.toggleTheme': '切換主題',
    'header.help': '說明與快速鍵',
    'header.present': '簡報模式',
    'header.exitPresent': '離開簡報模式',
    'header.presentTitle': '教學用的簡報模式：較大的字、畫布和一個輸出分頁（按 Esc 離開）',
    'header.helpTitle': '快速鍵（?）',
  },
};
export default messages;
