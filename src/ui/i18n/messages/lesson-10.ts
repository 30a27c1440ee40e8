import type { MessageArea } from '../i18n.ts';

/** Lesson 10: from prototype to cluster, reading the Flink SQL export. */
const messages: MessageArea = {
  en: {
    'lesson10.title': 'From prototype to cluster',
    'lesson10.summary': 'Export the layered pipeline to Flink SQL and read what maps to what.',
    'lesson10.step1': 'Everything you ran in the browser has a Flink SQL form. Press {flinkSql} in the header to export this pipeline. Done when the export is open.',
    'lesson10.step2': 'Read the script from the top: each source becomes a CREATE TABLE with a connector and a [[watermark]] clause; each operator becomes a view; each sink becomes a CREATE TABLE that an INSERT INTO writes. Settings such as [[checkpoint]] interval and [[ttl|TTL]] become SET statements.',
    'lesson10.q2': 'How many INSERT INTO statements does the script have?',
    'lesson10.step3': 'Things the browser simulated become connector options you must fill in: Kafka topics, JDBC URLs, the RocksDB [[stateBackend]]. Download the script, replace the placeholders, and run it with the Flink SQL client. The results should match the ones you saw here.',
  },
  'zh-TW': {
    'lesson10.title': '從原型到 cluster',
    'lesson10.summary': '把分層 pipeline 匯出成 Flink SQL，看看每個部分各自對應到什麼。',
    'lesson10.step1': '你在瀏覽器裡跑過的所有東西，都有對應的 Flink SQL 寫法。按下頁首的「{flinkSql}」，匯出這條 pipeline。匯出視窗打開就算完成。',
    'lesson10.step2': '從頭讀這份 script：每個 source 變成一個帶 connector 和 [[watermark]] 設定的 CREATE TABLE；每個運算子變成一個 view；每個 sink 變成一個 CREATE TABLE，再由 INSERT INTO 寫入。[[checkpoint]] 間隔、[[ttl]] 這類設定則變成 SET 陳述式。',
    'lesson10.q2': '這份 script 裡有幾個 INSERT INTO？',
    'lesson10.step3': '瀏覽器裡模擬的部分，會變成你得自己填的 connector 選項：Kafka topic、JDBC URL、RocksDB [[stateBackend]]。下載 script，換掉那些佔位符，再用 Flink SQL client 執行。結果應該和你在這裡看到的一樣。',
  },
};
export default messages;
