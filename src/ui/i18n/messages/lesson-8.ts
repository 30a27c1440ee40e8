import type { MessageArea } from '../i18n.ts';

/** Lesson 8: state TTL and the cost of a regular join without it. */
const messages: MessageArea = {
  en: {
    'lesson8.title': 'State TTL',
    'lesson8.summary': 'Idle state expiring, and what a regular join costs when nothing ever expires.',
    'lesson8.step1': 'This regular join has no [[ttl|TTL]]. Press {run}, select the join and keep an eye on its key count. Every order stays in the buffer after it was paid, because another payment with the same id could still come. Done when the join holds 20 keys or more.',
    'lesson8.step2': 'In production this is the classic slow leak: state grows until the job falls over. Set `ttlMs` on the join to 2000: a row not touched for two seconds of processing time expires.',
    'lesson8.step3': 'Run again at the same speed and compare the peak key count with the first run. The price: a payment that arrives after its order expired finds nothing and is silently dropped, so pick a TTL longer than the longest real delay. Done when the run with TTL peaked lower than the run without.',
  },
  'zh-TW': {
    'lesson8.title': 'State TTL',
    'lesson8.summary': '閒置的 state 會過期；以及一個什麼都不過期的一般 join 要付出什麼代價。',
    'lesson8.step1': '這個一般 join 沒有設 [[ttl]]。按下「{run}」，選取 join，盯著它的 key 數量。每筆訂單付款之後仍然留在 buffer 裡，因為同一個 id 之後還可能再來一筆付款。join 保有 20 個以上的 key 就算完成。',
    'lesson8.step2': '在正式環境裡，這就是典型的慢性洩漏：state 一直長大，直到 job 撐不住。把 join 的 `ttlMs` 設成 2000：兩秒 processing time 內沒被碰過的資料列就會過期。',
    'lesson8.step3': '用同樣的速度再跑一次，比較 key 數量的高峰和第一次有什麼不同。代價是：訂單過期之後才到的付款什麼也配不到，而且會被默默丟掉，所以 TTL 要設得比實際最長的延遲還長。有 TTL 的那次高峰比沒有 TTL 的低，就算完成。',
  },
};
export default messages;
