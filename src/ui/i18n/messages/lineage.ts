import type { MessageArea } from '../i18n.ts';

/** Column lineage: where a column comes from and where it goes, on the canvas. */
const messages: MessageArea = {
  en: {
    'lineage.source': 'source column',
    'lineage.merge': 'UNION ALL of {n} inputs',
    'lineage.userCode': 'computed by user code',
    'lineage.userCodeOf': 'computed by user code from {fields}',
    'lineage.unknown': 'derivation not known',
    'lineage.groupKey': 'GROUP BY key',
    'lineage.partitionKey': 'PARTITION BY key',
    'lineage.of': 'Lineage of {column}',
    'lineage.summaryUp': '{nodes} operators: made in {up} steps from its sources',
    'lineage.summaryDown': '{nodes} operators: read by {down} later steps',
    'lineage.summaryBoth': '{nodes} operators: {up} steps from its sources, {down} steps read it',
    'lineage.summaryAlone': 'no other operator makes or reads it',
    'lineage.clear': 'Clear',
    'lineage.fit': 'Fit path',
    'lineage.fitHint': 'Zoom the canvas to the operators on the path',
    'lineage.clearHint': 'End the lineage highlight (Esc)',
    'lineage.show': 'Show the lineage of column {column}: where it comes from and where it goes',
    'lineage.badge': 'Lineage at {node}',
    'lineage.more': '+{n} more',
  },
  'zh-TW': {
    'lineage.source': '來源欄位',
    'lineage.merge': '{n} 個輸入的 UNION ALL',
    'lineage.userCode': '由使用者程式碼計算',
    'lineage.userCodeOf': '由使用者程式碼從 {fields} 計算',
    'lineage.unknown': '推導方式未知',
    'lineage.groupKey': 'GROUP BY 鍵',
    'lineage.partitionKey': 'PARTITION BY 鍵',
    'lineage.of': '{column} 的欄位血緣',
    'lineage.summaryUp': '{nodes} 個運算子：由來源經 {up} 步算出',
    'lineage.summaryDown': '{nodes} 個運算子：之後有 {down} 步讀取它',
    'lineage.summaryBoth': '{nodes} 個運算子：由來源經 {up} 步算出，之後有 {down} 步讀取它',
    'lineage.summaryAlone': '沒有其他運算子產生或讀取它',
    'lineage.clear': '清除',
    'lineage.fit': '縮放至路徑',
    'lineage.fitHint': '將畫布縮放到路徑上的運算子',
    'lineage.clearHint': '結束欄位血緣標示（Esc）',
    'lineage.show': '顯示欄位 {column} 的血緣：它從哪裡來、往哪裡去',
    'lineage.badge': '{node} 上的欄位血緣',
    'lineage.more': '另有 {n} 項',
  },
};

export default messages;
