import type { MessageArea } from '../i18n.ts';

/** Lesson 4: windows and watermarks, with out-of-order orders per city. */
const messages: MessageArea = {
  en: {
    'lesson4.title': 'Windows and watermarks',
    'lesson4.summary': 'Revenue per city per minute from orders that arrive out of order. Tumbling, sliding and session windows; the watermark decides when a window fires; late orders go to a side output.',
    'lesson4.step1': 'Orders reach the job up to 4 seconds out of order, so the window cannot close the moment the clock says 12:01. It waits for the [[watermark]]: max event time seen minus 4 s. Press {run}, open the {windowsTab} tab on the window node, and watch each [[windowPane]] fire once the watermark passes its end. Done when `revenue_per_minute` has rows.',
    'lesson4.step2': 'Tumbling windows do not overlap. Switch the window type to HOP (sliding) with a size of 60000 and a slide of 10000, and run again: each order now counts in six windows. Done when the hop window produces rows.',
    'lesson4.step3': 'A session window has no fixed length: it stays open while events keep coming and closes after a quiet gap. Switch to SESSION with a gap of 5000 and run again. Done when the session window produces rows.',
    'lesson4.step4': 'Now make the watermark too eager. In the Orders source set the event time\'s maxOutOfOrdernessMs to 0 and run again. Orders that arrive after their window has fired are a [[lateRecord]]: they go to the `late` output and are counted instead of changing a result already sent. Done when late orders were counted.',
  },
  'zh-TW': {
    'lesson4.title': 'Window 與 watermark',
    'lesson4.summary': '用亂序到達的訂單算每個城市每分鐘的營收。tumbling、sliding 和 session window；由 watermark 決定 window 何時觸發；遲到的訂單送到側輸出。',
    'lesson4.step1': '訂單進到 job 時最多會亂序 4 秒，所以時鐘一到 12:01，window 還不能馬上關。它要等 [[watermark]]：目前看到的最大 event time 減 4 秒。按下「{run}」，在 window 節點上打開「{windowsTab}」分頁，看每個 [[windowPane]] 在 watermark 越過結尾時觸發。`revenue_per_minute` 有資料就算完成。',
    'lesson4.step2': 'tumbling window 彼此不重疊。把 window 類型換成 HOP（sliding），size 設 60000、slide 設 10000，再跑一次：現在每筆訂單會被算進六個 window。hop window 有輸出就算完成。',
    'lesson4.step3': 'session window 沒有固定長度：只要事件一直來它就開著，安靜超過一段間隔才關。換成 SESSION，gap 設 5000，再跑一次。session window 有輸出就算完成。',
    'lesson4.step4': '現在讓 watermark 太心急。在 Orders source 把 event time 的 maxOutOfOrdernessMs 設成 0，再跑一次。所屬 window 已經觸發後才到的訂單就是 [[lateRecord]]：它們會被送到 `late` 輸出並計數，而不是去改一個已經送出的結果。有遲到訂單被計數就算完成。',
  },
};
export default messages;
