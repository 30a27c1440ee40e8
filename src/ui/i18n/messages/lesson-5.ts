import type { MessageArea } from '../i18n.ts';

/** Lesson 5: state backends, memory vs IndexedDB, full vs incremental checkpoints. */
const messages: MessageArea = {
  en: {
    'lesson5.title': 'State backends',
    'lesson5.summary': 'The same aggregation on the heap and in IndexedDB: throughput and state size side by side, and what a checkpoint actually writes.',
    'lesson5.step1': 'This pipeline keeps 300 stores in [[state]] and takes a [[checkpoint]] every half second. Set {speed} to {max} and press {run} with the memory [[stateBackend]]. Note the records per second and the state size while it runs. Done when a run on memory has finished.',
    'lesson5.step2': 'Now open {runSettings} in the run toolbar, set {stateSetting} to IndexedDB and press {run} again. The working set still lives in memory; IndexedDB receives the changed keys in chunks at each checkpoint, so the slowdown should be modest. Done when a run on IndexedDB has finished.',
    'lesson5.step3': 'Both runs must agree: a backend changes where state lives, never what the job computes. Compare the two views.',
    'lesson5.q3': 'How many rows does `sales_by_store` hold at the end?',
    'lesson5.step4': 'Set {speed} to 10 / s, press {run} and open the {checkpointsTab} tab. A full checkpoint writes all state; an [[incremental]] one writes only the key groups that changed since the last one and points to older chunks for the rest. At this pace only a few stores change between two checkpoints. Done when a completed checkpoint wrote less than the full state.',
  },
  'zh-TW': {
    'lesson5.title': 'State backend',
    'lesson5.summary': '同一個聚合分別放在 heap 和 IndexedDB：並排比較吞吐量和 state 大小，看看 checkpoint 實際寫了什麼。',
    'lesson5.step1': '這條 pipeline 在 [[state]] 裡保存 300 家店，每半秒做一次 [[checkpoint]]。把「{speed}」調到「{max}」，用 memory 這個 [[stateBackend]] 按下「{run}」。跑的時候記下每秒筆數和 state 大小。memory 跑完一次就算完成。',
    'lesson5.step2': '接著打開執行工具列的「{runSettings}」，把「{stateSetting}」改成 IndexedDB，再按一次「{run}」。工作中的資料仍然在記憶體裡，IndexedDB 只在每次 checkpoint 時以 chunk 收下有變動的 key，所以變慢的幅度應該不大。IndexedDB 跑完一次就算完成。',
    'lesson5.step3': '兩次的結果必須一致：backend 改變的是 state 放在哪裡，不會改變 job 算出什麼。比較兩個 view。',
    'lesson5.q3': '跑完之後 `sales_by_store` 有幾列？',
    'lesson5.step4': '把「{speed}」調到 10 / s，按下「{run}」，打開「{checkpointsTab}」分頁。full checkpoint 會寫入全部 state；[[incremental]] 只寫上一次之後有變動的 key group，其餘部分指向舊的 chunk。照這個速度，兩次 checkpoint 之間只有少數幾家店會變動。有一個完成的 checkpoint 寫入量小於完整 state 就算完成。',
  },
};
export default messages;
