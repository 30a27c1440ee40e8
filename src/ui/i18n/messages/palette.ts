import type { MessageArea } from '../i18n.ts';

/** The operator palette. */
const messages: MessageArea = {
  en: {
    'palette.operators': 'Operators',
    'palette.filter': 'Filter operators',
    'palette.dragHint': 'Drag onto the canvas, or press Enter to add it at the centre.',
    'palette.noMatch': 'No operator matches “{query}”.',
    'palette.group.sources': 'Sources',
    'palette.group.stateless': 'Stateless',
    'palette.group.keyed': 'Keyed & aggregates',
    'palette.group.windows': 'Windows',
    'palette.group.joins': 'Joins',
    'palette.group.state': 'State & process',
    'palette.group.sinks': 'Sinks',
  },
  'zh-TW': {
    'palette.operators': '運算子',
    'palette.filter': '篩選運算子',
    'palette.dragHint': '拖曳到畫布上，或按 Enter 加到畫布中央。',
    'palette.noMatch': '沒有符合「{query}」的運算子。',
    'palette.group.sources': 'Source',
    'palette.group.stateless': '無狀態',
    'palette.group.keyed': 'Keyed 與彙總',
    'palette.group.windows': '視窗',
    'palette.group.joins': 'Join',
    'palette.group.state': '狀態與自訂處理',
    'palette.group.sinks': 'Sink',
  },
};
export default messages;
