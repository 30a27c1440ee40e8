import type { MessageArea } from '../i18n.ts';

/** Lesson 3: joins keep state, with orders and payments. */
const messages: MessageArea = {
  en: {
    'lesson3.title': 'Joins keep state',
    'lesson3.summary': 'Orders meet their payments. Unmatched rows wait in the join buffers; a left join retracts what it guessed; without TTL the buffers never shrink.',
    'lesson3.step1': 'Orders and payments arrive on two streams, in any order. Press {run}. Done when the join has emitted its first row into `order_status`.',
    'lesson3.step2': 'A payment may come before its order, or an order may never be paid. So the join keeps every row of both sides in its buffers, as [[state]]. Select the join and open the {joinTab} tab: rows still waiting for a partner sit there. Done when you have seen the buffers.',
    'lesson3.step3': 'This is a LEFT join: an order with no payment yet is emitted at once, padded with NULLs. When the payment arrives, that guess is wrong, so the join sends a [[retraction]] (-D) and then the joined row (+I). Watch the {resultsTab} log of `order_status`. Done when a retraction reached it.',
    'lesson3.step4': 'Change the join type to INNER in the Inspector and run again. An inner join emits only real matches, so it never has to take anything back. Done when the inner join fills `order_status` without a single retraction.',
    'lesson3.step5': 'Neither type ever forgets: a regular join keeps both sides until the job ends, so its state grows with every order. Set `ttlMs` on the join (try 10000). Lesson 8 measures what that buys and what it costs.',
  },
  'zh-TW': {
    'lesson3.title': 'Join 需要 state',
    'lesson3.summary': '訂單遇上它的付款。還沒配對的資料在 join buffer 裡等著；left join 會撤回先前猜的結果；沒設 TTL 的話 buffer 永遠不會變小。',
    'lesson3.step1': '訂單和付款從兩條 stream 進來，先後順序不一定。按下「{run}」。join 往 `order_status` 送出第一列就算完成。',
    'lesson3.step2': '付款可能比訂單早到，訂單也可能永遠沒付款。所以 join 會把兩邊看過的每一列都留在 buffer 裡，這就是它的 [[state]]。選取 join 並打開「{joinTab}」分頁：還在等對象的資料都在那裡。看過 buffer 就算完成。',
    'lesson3.step3': '這是 LEFT join：還沒付款的訂單會先送出，缺的欄位補 NULL。等付款到了，先前的猜測就錯了，所以 join 會送出 [[retraction]]（-D），再送出配對好的那列（+I）。看 `order_status` 在「{resultsTab}」裡的 log。收到撤回就算完成。',
    'lesson3.step4': '在 Inspector 把 join 類型改成 INNER，再跑一次。inner join 只送出真正配對到的結果，所以從來不需要收回什麼。inner join 寫入 `order_status` 且完全沒有撤回，就算完成。',
    'lesson3.step5': '兩種 join 都不會忘記：一般的 join 會把兩邊的資料一直留到 job 結束，state 隨著每筆訂單長大。在 join 上設定 `ttlMs`（試試 10000）。第 8 課會量測這樣做換到什麼、又付出什麼代價。',
  },
};
export default messages;
