import type { MessageArea } from '../i18n.ts';
import { kindSpecs } from '../../../pipeline/kinds/index.ts';
import { paramDescriptions } from '../paramDescriptions.ts';

// English comes from the kind specs themselves, so it cannot drift from them; a new kind or param
// description without a zh-TW text below fails the translation-completeness test.

const ZH_KINDS: Record<string, [title: string, summary: string]> = {
  inlineSource: ['內嵌資料列', '直接寫在 pipeline 裡的固定資料列。'],
  fileSource: ['資料檔案', '從 CSV、JSON Lines 或 JSON 陣列檔案讀取的資料。'],
  feedSource: ['即時資料流', '從 WebSocket 或 Server-Sent Events 串流即時到達的資料。'],
  generatorSource: ['資料產生器', '以固定種子產生的模擬資料（咖啡店來客、訂單、付款…），速率可調。'],
  filter: ['篩選', '只留下符合條件的資料；不記住任何東西。'],
  map: ['Map 轉換', '把每筆資料轉成一筆新資料。'],
  project: ['選取欄位', '保留、改名與計算欄位，就像 SELECT。'],
  flatMap: ['FlatMap 展開', '把每筆資料變成零筆、一筆或多筆。'],
  union: ['Union 合併', '把多個相同結構的 stream 合成一個（UNION ALL）。'],
  keyBy: ['Key by 分區', '依 key 分區，讓下游的 state 以 key 為單位。'],
  aggregate: ['分組彙總', 'GROUP BY 搭配 count、sum、avg、min、max、count distinct、第一個或最後一個值、值的清單，或自訂函式；輸出 changelog。'],
  window: ['視窗彙總', 'Event time 的 TUMBLE、HOP、SESSION 或 CUMULATE 視窗，搭配 count、sum、avg、min、max 或自訂彙總。'],
  join: ['Join', '一般的 stream-stream join（INNER、LEFT、RIGHT、FULL），以相等的 key 配對；輸入可以是更新串流。'],
  intervalJoin: ['區間 Join', '配對 event time 相近的資料：right.ts BETWEEN left.ts + lower AND left.ts + upper。'],
  temporalJoin: ['時態 Join', '把每個事件與變動表在該事件時間當下有效的版本配對（FOR SYSTEM_TIME AS OF）。'],
  lookupJoin: ['查找 Join', '以維度表目前的資料列補充每個事件（FOR SYSTEM_TIME AS OF 處理時間欄位）。'],
  topN: ['Top N', '依排序取每個分區的前 n 筆，並以 changelog 持續更新。'],
  dedup: ['去除重複', '每個 key 只保留一筆：第一筆或最後一筆，依到達順序或 event time。'],
  overAggregate: ['Over 彙總', '對每一筆資料計算 OVER (PARTITION BY … ORDER BY event time ROWS/RANGE BETWEEN … PRECEDING AND CURRENT ROW) 彙總，也可用 LAG、FIRST_VALUE、LAST_VALUE。'],
  windowJoin: ['視窗 Join', '在每個視窗內 join 兩條視窗化的 stream（INNER、LEFT、RIGHT、FULL），視窗關閉時輸出一次。'],
  semiJoin: ['Semi / anti join', '保留右側有相符資料的左側資料（IN、EXISTS），或沒有相符資料的（NOT IN、NOT EXISTS）；輸入可以是更新串流。'],
  broadcastProcess: ['廣播規則', '把一條廣播的規則 stream（broadcast state）套用到主 stream 的每筆資料。'],
  process: ['Process function', '自訂的 keyed 邏輯，可用 state 與 timer，就像 Flink 的 KeyedProcessFunction。'],
  viewSink: ['具體化檢視', '依主鍵套用 changelog，持續保持最新的資料表。'],
  logSink: ['Log 輸出', '印出每一筆 changelog，就像 Flink 的 print connector。'],
  collectSink: ['收集', '收集每一筆 changelog，供測試與檢查用。'],
};

/** zh-TW by English text: the same description shared by several kinds is translated once. */
const ZH_PARAMS: Record<string, string> = {
  'The records.': '資料列。',
  'Declared fields and their types. Records whose fields have other types go to the dead-letter output.': '宣告的欄位與型別。欄位型別不符的資料會送到 dead-letter 輸出。',
  'Where event time comes from and how watermarks are generated.': 'Event time 從哪裡來，以及 watermark 如何產生。',
  'Field holding the event time (epoch ms or ISO-8601 text).': '存放 event time 的欄位（epoch 毫秒或 ISO-8601 文字）。',
  'Computes the event time from the record (epoch ms or a timestamp, e.g. `TO_TIMESTAMP(`ts_text`)`) and stores it in `field`, a field the schema does not declare: a SQL computed column `field AS expr`.': '由資料計算 event time（epoch 毫秒或時間戳，例如 `TO_TIMESTAMP(`ts_text`)`），存進 `field`，這個欄位不能在 schema 中宣告：即 SQL 的計算欄位 `field AS expr`。',
  'Watermark = max event time seen − this bound − 1.': 'Watermark = 已見到的最大 event time − 這個界限 − 1。',
  'After this long without records the source is idle and stops holding back watermarks.': '超過這段時間沒有資料，source 就視為閒置，不再拖住 watermark。',
  'Simulated arrival rate, records per second of processing time.': '模擬的到達速率，每秒 processing time 的筆數。',
  'Read the records as a changelog instead of appends: `debezium-json` (op c/r/u/d with before/after), `changelog-json` (op +I/-U/+U/-D with data), or `upsert` by primary key, where a null value deletes (upsert-kafka).': '把資料當成 changelog 而不是只有新增來讀：`debezium-json`（op 為 c/r/u/d，附 before/after）、`changelog-json`（op 為 +I/-U/+U/-D，附 data），或依主鍵的 `upsert`，值為 null 時刪除該 key（如 upsert-kafka）。',
  'How each record encodes its change.': '每筆資料如何表示它的變更。',
  'Data file, relative to the pipeline file.': '資料檔案，相對於 pipeline 檔案的路徑。',
  'jsonl: one JSON object per line; csv: a header line, then one record per line; json: one JSON array of objects. Default: by the file extension.': 'jsonl：每行一個 JSON 物件；csv：先一行標題，之後每行一筆資料；json：一個由物件組成的 JSON 陣列。預設依副檔名判斷。',
  'CSV field delimiter; default comma (tab for .tsv).': 'CSV 欄位分隔字元；預設為逗號（.tsv 為 tab）。',
  'ws://host:port/path (WebSocket) or http://host:port/path (Server-Sent Events).': 'ws://host:port/path（WebSocket）或 http://host:port/path（Server-Sent Events）。',
  'websocket or sse; default: by the URL (ws:// or wss://: websocket, http:// or https://: sse).': 'websocket 或 sse；預設依 URL 判斷（ws:// 或 wss:// 為 websocket，http:// 或 https:// 為 sse）。',
  'json: an object or an array of objects per message; jsonArray: an array per message; ndjson: one object per line; csv: lines of cells named by columns.': 'json：每則訊息一個物件或物件陣列；jsonArray：每則訊息一個陣列；ndjson：每行一個物件；csv：多行欄位值，欄位名稱由 columns 指定。',
  'JSON path to the records in each message, as in $.data.items; default: the whole message.': '每則訊息中資料所在的 JSON 路徑，例如 $.data.items；預設為整則訊息。',
  'CSV: the name of each cell, in order.': 'CSV：依序列出每個欄位的名稱。',
  'CSV field delimiter; default comma.': 'CSV 欄位分隔字元；預設為逗號。',
  'Reconnecting after a drop: exponential backoff with jitter.': '斷線後重新連線：指數退避並加上隨機抖動。',
  'Delay before the first attempt; each attempt doubles it (half of it random).': '第一次重試前的等待時間；之後每次加倍（其中一半為隨機）。',
  'No delay is longer than this.': '等待時間不會超過這個值。',
  'Attempts in a row before the feed is closed; leave out to try for ever.': '連續重試幾次後關閉資料流；不填則會一直重試。',
  'Messages kept for replay after a restart (those since the oldest retained checkpoint); default 100000.': '為了重新啟動後重播而保留的訊息數（自最舊的保留 checkpoint 以來）；預設 100000。',
  'When bufferLimit is reached: fail the job, or drop new messages as counted dead letters.': '達到 bufferLimit 時：讓 job 失敗，或丟棄新訊息並記為 dead letter 計數。',
  "The table's primary key. Required for upsert; for the other formats it makes the source keep the latest row per key, so every retraction matches what downstream saw.": '這張表的主鍵。upsert 必填；其他格式填了之後，source 會記住每個 key 的最新一列，讓每次撤回都與下游看過的資料一致。',
  'Which data set to generate.': '要產生哪一組資料。',
  'How many units (records, visits or orders) to generate.': '要產生多少單位（筆數、來客數或訂單數）。',
  "Units (records, visits or orders) per second of event time, and the simulated arrival pace; the designer's Speed, in records per second, paces a run instead.": '每秒 event time 的單位數（筆數、來客數或訂單數），也是模擬的到達步調；設計器的「速度」以每秒筆數為單位，執行時改由它控制步調。',
  'Random seed; default: derived from the job seed and the node id.': '亂數種子；預設由 job 的種子與節點 id 推導。',
  'Cardinality: customers, stores or sequence keys.': '基數：顧客、門市或序列 key 的數量。',
  'Event time of the first unit, epoch ms.': '第一個單位的 event time，epoch 毫秒。',
  'Largest random delay subtracted from event time (out-of-orderness).': '從 event time 扣掉的最大隨機延遲（亂序程度）。',
  "For the datagen scenario: how each column of `schema` is made, as Flink's datagen `fields.<column>.*` options say (random by default).": 'datagen 情境專用：`schema` 的每個欄位如何產生，與 Flink datagen 的 `fields.<column>.*` 選項相同（預設為隨機值）。',
  "SQL condition, e.g. `amount > 100 AND status = 'PAID'`.": "SQL 條件，例如 `amount > 100 AND status = 'PAID'`。",
  'JS/TS predicate `(row) => boolean`.': 'JS/TS 判斷函式 `(row) => boolean`。',
  'SQL expression over the input fields.': '以輸入欄位寫成的 SQL 運算式。',
  'JS/TS function `(row) => ({ ...row, total: row.price * row.qty })`.': 'JS/TS 函式 `(row) => ({ ...row, total: row.price * row.qty })`。',
  'JS/TS function `(row) => row[]`.': 'JS/TS 函式 `(row) => row[]`。',
  'Fields that form the key.': '組成 key 的欄位。',
  'GROUP BY fields (may be empty for a global aggregate).': 'GROUP BY 欄位（全域彙總時可留空）。',
  'Aggregate function.': '彙總函式。',
  'Input field; leave out for COUNT(*).': '輸入欄位；COUNT(*) 時不用填。',
  'Output column name.': '輸出欄位名稱。',
  'For lag: how many rows back (0 is the row itself); default 1.': 'lag 用：往回幾筆（0 是這一筆本身）；預設 1。',
  'For lag: the value when the partition has fewer rows before this one; default NULL.': 'lag 用：分區中這一筆之前的資料不夠多時傳回的值；預設 NULL。',
  'For listAgg: what goes between two values; default ",".': 'listAgg 用：兩個值之間放的文字；預設為 ","。',
  'For udaf: ({ create, add, retract, get, merge }).': '用於 udaf：({ create, add, retract, get, merge })。',
  'Window table function: TUMBLE, HOP, SESSION or CUMULATE.': '視窗表函式：TUMBLE、HOP、SESSION 或 CUMULATE。',
  'Window size (tumble, hop; the largest window for cumulate).': '視窗大小（tumble、hop；cumulate 則為最大的視窗）。',
  'How far consecutive hop windows are apart.': '相鄰兩個 hop 視窗之間的間隔。',
  "Session gap: a group's session ends after this long without records.": 'Session 間隔：一個群組超過這段時間沒有資料，session 就結束。',
  'How much each cumulate window grows.': '每個 cumulate 視窗每次增長多少。',
  'Shifts window boundaries (tumble, hop, cumulate); for example −8 h aligns days to UTC+8.': '平移視窗邊界（tumble、hop、cumulate）；例如 −8 h 會讓每天對齊 UTC+8。',
  'Fields grouped by within each window (may be empty).': '每個視窗內分組用的欄位（可留空）。',
  'How long after firing a window still accepts records and updates its result.': '視窗觸發後還接受資料並更新結果的時間長度。',
  'INNER, LEFT, RIGHT or FULL OUTER join.': 'INNER、LEFT、RIGHT 或 FULL OUTER join。',
  'INNER, LEFT, RIGHT or FULL OUTER join, or a semi / anti join (IN, EXISTS / NOT IN, NOT EXISTS) that keeps left rows only.': 'INNER、LEFT、RIGHT 或 FULL OUTER join，或只保留左側資料列的 semi / anti join（IN、EXISTS / NOT IN、NOT EXISTS）。',
  'Join key fields of the left input (left.k1 = right.k1 AND ...).': '左側輸入的 join key 欄位（left.k1 = right.k1 AND ...）。',
  'Join key fields of the left input (left.k1 = right.k1 AND ...); empty: every pair of the same window.': '左側輸入的 join key 欄位（left.k1 = right.k1 AND ...）；留空：同一視窗內的每一對都會配對。',
  'Join key fields of the right input, in the same order as leftKey.': '右側輸入的 join key 欄位，順序與 leftKey 相同。',
  'Hold left rows until the right input has ended, so a bounded dimension table is loaded first; default true. Off: join each left row on arrival.': '先保留左側資料列，直到右側輸入結束，讓有界的維度表先完整載入；預設為 true。關閉：每筆左側資料一到就立即 join。',
  'Join key fields of the left input (left.k1 = right.k1 AND ...); empty: every left row pairs with every right row.': '左側輸入的 join key 欄位（left.k1 = right.k1 AND ...）；留空：每一筆左側資料都與每一筆右側資料配對。',
  'semi: keep left rows with a match (IN, EXISTS); anti: keep left rows without one (NOT IN, NOT EXISTS).': 'semi：保留有相符資料的左側資料（IN、EXISTS）；anti：保留沒有相符資料的左側資料（NOT IN、NOT EXISTS）。',
  'Key fields of the left input compared for equality with rightKey; empty: one key for every row.': '左側輸入中與 rightKey 比較是否相等的 key 欄位；留空：所有資料共用一個 key。',
  'Key fields of the right input, in the same order as leftKey.': '右側輸入的 key 欄位，順序與 leftKey 相同。',
  "NOT IN's column pair: a right row matches when the two are equal or either is NULL.": 'NOT IN 比較的欄位對：兩者相等，或任一方為 NULL 時，右側資料即算相符。',
  'Compare the keys as IS NOT DISTINCT FROM: NULL matches NULL (INTERSECT, EXCEPT). Off: a NULL key matches nothing (=, IN, EXISTS).': '以 IS NOT DISTINCT FROM 比較鍵：NULL 與 NULL 相符（INTERSECT、EXCEPT）。關閉時，NULL 鍵不與任何資料相符（=、IN、EXISTS）。',
  'Left field (the value before NOT IN).': '左側欄位（NOT IN 前面的值）。',
  'Right field (the column the subquery selects).': '右側欄位（子查詢選出的欄位）。',
  'Drop buffered rows not written for this long (processing time). Leave out to keep both sides forever.': '丟掉超過這段時間沒有寫入的暫存資料（processing time）。不填則兩側永遠保留。',
  'Lower bound: right.ts >= left.ts + lowerBoundMs. Negative values reach into the past.': '下界：right.ts >= left.ts + lowerBoundMs。負值表示往過去延伸。',
  'Upper bound: right.ts <= left.ts + upperBoundMs. Must be >= lowerBoundMs.': '上界：right.ts <= left.ts + upperBoundMs。必須 >= lowerBoundMs。',
  'PARTITION BY fields (may be empty for one global ranking).': 'PARTITION BY 欄位（全域單一排名時可留空）。',
  'ORDER BY: the first entry decides, later ones break ties.': 'ORDER BY：以第一項為準，後面的用來決定同分時的順序。',
  'Field to sort by.': '排序用的欄位。',
  'asc: smallest first; desc: largest first.': 'asc：由小到大；desc：由大到小。',
  'How many rows each partition keeps in the ranking.': '每個分區在排名中保留幾筆。',
  'Output column for the 1-based rank (default `rownum`).': '存放名次（從 1 起算）的輸出欄位（預設 `rownum`）。',
  'Fields that identify duplicates.': '用來辨識重複資料的欄位。',
  'Which row of each key to keep.': '每個 key 要保留哪一筆。',
  'Order that decides first and last: arrival (processing order, default) or event time.': '決定第一筆與最後一筆的順序：到達順序（處理順序，預設）或 event time。',
  'Field of a rule row that identifies the rule.': '規則資料中用來識別規則的欄位。',
  'Field of the main row matched against the rule keys (enrichment).': '主資料中拿來比對規則 key 的欄位（資料補充）。',
  'JS/TS function `(row, rules, ctx) => row | row[] | null`.': 'JS/TS 函式 `(row, rules, ctx) => row | row[] | null`。',
  'JS/TS object literal `({ state, processElement(row, ctx), onTimer(timestamp, ctx) })`.': 'JS/TS 物件字面值 `({ state, processElement(row, ctx), onTimer(timestamp, ctx) })`。',
  'Primary key fields of the view.': '檢視的主鍵欄位。',
  'Lines kept for display.': '保留顯示的行數。',
  "Extra join condition on each key-matched pair, written over the joined row's columns (right fields renamed `_right` when taken), e.g. `amount > limit_right`.":
    '對每一組 key 相符的資料再加上的 join 條件，以 join 後資料列的欄位撰寫（右側重名欄位改名為 `_right`），例如 `amount > limit_right`。',
  'The window of both inputs: rows join only within one window.': '兩側輸入共用的視窗：只有同一個視窗內的資料會 join。',
  "TUMBLE, HOP or CUMULATE over the input's event time, or `columns`: the input already has window_start and window_end (e.g. a Window aggregate's output).":
    '依輸入的 event time 套用 TUMBLE、HOP 或 CUMULATE，或 `columns`：輸入本身已有 window_start 與 window_end（例如視窗彙總的輸出）。',
  'Window size (the largest window for cumulate).': '視窗大小（cumulate 則為最大的視窗）。',
  'Shifts window boundaries; for example −8 h aligns days to UTC+8.': '平移視窗邊界；例如 −8 h 會讓每天對齊 UTC+8。',
  'Window Top-N: rank within each window and emit once when it closes. Leave out for a continuous ranking.': '視窗 Top-N：在每個視窗內排名，視窗關閉時輸出一次。不填則為持續更新的排名。',
  'Window deduplication: keep one row per key and window, emitted when the window closes. Leave out for continuous deduplication.':
    '視窗去重：每個 key 在每個視窗只保留一筆，視窗關閉時輸出。不填則為持續去重。',
  'PARTITION BY fields (may be empty for one partition).': 'PARTITION BY 欄位（只有一個分區時可留空）。',
  'ROWS counts preceding rows; RANGE takes the rows within an event-time interval.': 'ROWS 以前面的筆數計算；RANGE 取 event time 區間內的資料。',
  'ROWS frame: how many preceding rows it spans; leave out for UNBOUNDED PRECEDING.': 'ROWS 範圍：往前涵蓋幾筆；不填則為 UNBOUNDED PRECEDING。',
  'RANGE frame: how far back in event time it reaches; leave out for UNBOUNDED PRECEDING.': 'RANGE 範圍：往前涵蓋多久的 event time；不填則為 UNBOUNDED PRECEDING。',
};

const en: Record<string, string> = {};
const zh: Record<string, string> = {};
for (const s of kindSpecs) {
  en[`kind.${s.kind}.title`] = s.title;
  en[`kind.${s.kind}.summary`] = s.summary;
  const z = ZH_KINDS[s.kind];
  if (z) [zh[`kind.${s.kind}.title`], zh[`kind.${s.kind}.summary`]] = z;
}
for (const [key, text] of Object.entries(paramDescriptions())) {
  en[key] = text;
  if (ZH_PARAMS[text]) zh[key] = ZH_PARAMS[text];
}

const messages: MessageArea = { en, 'zh-TW': zh };
export default messages;
