import type { MessageArea } from '../i18n.ts';

/** Lesson 2: streams and tables, with retail transactions and the sales_by_store view. */
const messages: MessageArea = {
  en: {
    'lesson2.title': 'Streams and tables',
    'lesson2.summary': 'Retail transactions become the `sales_by_store` materialized view. See the changelog on the edge, then query the table two ways.',
    'lesson2.step1': 'Every transaction is a fact that happened once: the stream only ever grows. Press {run}. The GROUP BY on `store_id` turns the stream into a table with one row per store. Done when `sales_by_store` has a row.',
    'lesson2.step2': 'A store\'s total changes with every sale, so the aggregate cannot just append. It sends a [[changelog]]: -U takes the old row back, +U puts the new one in. Hover the edge into the view to see the kinds, or open {resultsTab} and switch to the log. Done when the view has received updates, not only inserts.',
    'lesson2.step3': 'The view applies those changes by primary key, which makes it a [[materializedView]]: the current answer is always there, nothing is recomputed. Let the run finish, then read the view.',
    'lesson2.q3': 'Which store has the highest revenue? (store_id)',
    'lesson2.step4': 'Two ways to ask a table. A pull query reads the current row for one key and is done; a push query subscribes and receives every change from then on. Open the {queryTab} tab, pick `sales_by_store`, try {pull} for one store and {subscribeAll}, and compare what comes back. Done when a query on the view returns something.',
  },
  'zh-TW': {
    'lesson2.title': 'Stream 與 Table',
    'lesson2.summary': '零售交易變成 `sales_by_store` 物化視圖。在 edge 上看 changelog，再用兩種方式查詢這張表。',
    'lesson2.step1': '每筆交易都是發生過一次的事實，stream 只會一直變長。按下「{run}」。以 `store_id` 做 GROUP BY，把 stream 變成一家店一列的表。`sales_by_store` 有資料就算完成。',
    'lesson2.step2': '每多一筆銷售，店的總額就會變，所以 aggregate 不能只是一直往後加。它送出的是 [[changelog]]：-U 收回舊的那列，+U 放上新的那列。把滑鼠移到連往 view 的 edge 上可以看到種類，或打開「{resultsTab}」切到 log。view 收到更新（而不只是新增）就算完成。',
    'lesson2.step3': 'view 依 primary key 套用這些變更，所以它是一個 [[materializedView]]：目前的答案隨時都在，不需要重算。讓它跑完，再看 view 的內容。',
    'lesson2.q3': '哪一家店營收最高？（填 store_id）',
    'lesson2.step4': '查一張表有兩種方式。pull query 讀某個 key 目前的那一列就結束；push query 則是訂閱，之後每次變更都會收到。打開「{queryTab}」分頁，選 `sales_by_store`，對某一家店按「{pull}」，再試試「{subscribeAll}」，比較回來的東西。查詢有回傳結果就算完成。',
  },
};
export default messages;
