import type { MessageArea } from '../i18n.ts';

/** Strings shared across the app shell. Technical terms (checkpoint, watermark, barrier) stay in English in zh-TW, as engineers write them. */
const messages: MessageArea = {
  en: {
    'common.language': 'Language',
    'common.close': 'Close',
    'common.cancel': 'Cancel',
    'common.ok': 'OK',
  },
  'zh-TW': {
    'common.language': '語言',
    'common.close': '關閉',
    'common.cancel': '取消',
    'common.ok': '確定',
  },
};
export default messages;
