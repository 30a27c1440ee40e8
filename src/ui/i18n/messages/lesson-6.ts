import type { MessageArea } from '../i18n.ts';

/** Lesson 6: checkpoints, barriers, alignment, recovery and the exactly-once check. */
const messages: MessageArea = {
  en: {
    'lesson6.title': 'Checkpoints and barriers',
    'lesson6.summary': 'Barriers flow with the data, the join aligns its inputs, a checkpoint completes. Then kill a subtask, watch the job recover, and prove that no record was counted twice.',
    'lesson6.step1': 'Two jobs share this canvas. The top one counts a stream of per-key sequence numbers; the bottom one joins orders with payments. Press {run} at a slow speed (10 / s) and open the {checkpointsTab} tab. Done when the first [[checkpoint]] has completed.',
    'lesson6.step2': 'Every second the sources inject a [[barrier]]. Watch the small markers travel along the edges. The join has two inputs: when the barrier arrives on one side first, that side is held back until it arrives on the other. That is [[alignment]], and it is why the snapshot is consistent. Done when you have seen a barrier and an aligning subtask.',
    'lesson6.step3': 'Now break something. While the job runs, open {kill} in the run toolbar and kill `per_key#0` (“Count per key”). The job restarts from the latest complete checkpoint: state goes back, and the sources rewind to the offsets stored with it. Done when a restart happened.',
    'lesson6.step4': 'Records read after that checkpoint were processed twice, once before the crash and once after. Were they counted twice? Each key\'s `seq` grows by exactly 1, so `counted` must equal `max_seq` for every key. Let the run finish and check `seq_counts`. Done when the view proves [[exactlyOnce]]: 600 records, each counted once.',
  },
  'zh-TW': {
    'lesson6.title': 'Checkpoint 與 barrier',
    'lesson6.summary': 'barrier 跟著資料流動、join 對齊兩個輸入、checkpoint 完成。接著砍掉一個 subtask，看 job 怎麼復原，並證明沒有任何資料被算了兩次。',
    'lesson6.step1': '這張畫布上有兩個 job。上面那個對每個 key 的序號做計數；下面那個把訂單和付款 join 起來。用慢速（10 / s）按下「{run}」，打開「{checkpointsTab}」分頁。第一個 [[checkpoint]] 完成就算完成。',
    'lesson6.step2': 'source 每秒會插入一個 [[barrier]]。看那些小標記沿著 edge 移動。join 有兩個輸入：barrier 先到了其中一邊，那一邊就會被擋住，等另一邊的 barrier 也到。這就是 [[alignment]]，snapshot 能保持一致就靠它。看到 barrier 和正在對齊的 subtask 就算完成。',
    'lesson6.step3': '現在來弄壞點東西。在 job 執行時，在執行工具列打開「{kill}」，終止 `per_key#0`（「Count per key」）。job 會從最新一個完成的 checkpoint 重啟：state 退回去，source 也倒回當時記下的 offset。發生一次重啟就算完成。',
    'lesson6.step4': '在那個 checkpoint 之後讀到的資料被處理了兩次：當機前一次，復原後又一次。它們有被算兩次嗎？每個 key 的 `seq` 剛好逐一遞增，所以每個 key 的 `counted` 都必須等於 `max_seq`。讓它跑完，檢查 `seq_counts`。view 證明了 [[exactlyOnce]]（600 筆，每筆只算一次）就算完成。',
  },
};
export default messages;
