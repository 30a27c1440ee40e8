import type { MessageArea } from '../i18n.ts';

/** Lesson 7: scaling out with key groups and parallelism. */
const messages: MessageArea = {
  en: {
    'lesson7.title': 'Scaling out',
    'lesson7.summary': 'Key groups and parallelism: take a checkpoint with one subtask, rescale the aggregate to four, and watch the keys spread out.',
    'lesson7.step1': 'The aggregate runs as a single [[subtask]] and owns all 40 stores. Press {run} and wait for a [[checkpoint]]. Done when one has completed with parallelism 1.',
    'lesson7.step2': 'Press {stop}. Select “sales” and set its parallelism to 4 in the Inspector. Keys are not dealt out one by one: each key hashes to one of 128 [[keyGroup|key groups]], and each subtask gets a contiguous range of them.',
    'lesson7.step3': 'Run again (resume from the checkpoint if the toolbar offers it). Select “sales” and look at the subtasks: each one now holds only the keys of its own key groups. Done when all four subtasks hold keys.',
    'lesson7.step4': 'Rescaling moved whole key groups, so no store was split and none was lost. Let the run finish. Done when all 40 stores are in `sales_by_store` with four subtasks.',
  },
  'zh-TW': {
    'lesson7.title': '水平擴展',
    'lesson7.summary': 'key group 與 parallelism：用一個 subtask 做出 checkpoint，把 aggregate 擴展成四個，看 key 如何重新分散。',
    'lesson7.step1': '這個 aggregate 只跑一個 [[subtask]]，40 家店全歸它管。按下「{run}」，等一個 [[checkpoint]]。parallelism 1 之下完成一個 checkpoint 就算完成。',
    'lesson7.step2': '按下「{stop}」。選取「sales」，在 Inspector 把它的 parallelism 設成 4。key 不是一個一個發出去的：每個 key 會 hash 到 128 個 [[keyGroup]] 之一，每個 subtask 負責一段連續的 key group。',
    'lesson7.step3': '再跑一次（工具列若提供從 checkpoint 恢復，就用它）。選取「sales」看各個 subtask：現在每個 subtask 只保有自己那些 key group 裡的 key。四個 subtask 都有 key 就算完成。',
    'lesson7.step4': 'rescale 搬的是整個 key group，所以沒有哪家店被拆開，也沒有遺失。讓它跑完。四個 subtask 跑完、`sales_by_store` 裡有全部 40 家店，就算完成。',
  },
};
export default messages;
