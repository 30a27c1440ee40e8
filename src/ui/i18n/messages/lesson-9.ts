import type { MessageArea } from '../i18n.ts';

/** Lesson 9: bronze, silver, gold, and replaying history after a fix. */
const messages: MessageArea = {
  en: {
    'lesson9.title': 'Bronze → silver → gold',
    'lesson9.summary': 'A layered pipeline with a bug in silver. Fix it, replay history from the start, and compare gold before and after.',
    'lesson9.step1': 'These are the [[medallion]]: bronze keeps raw orders exactly as they came, silver filters, cleans and deduplicates, gold sums revenue per city. Press {run} and read `gold`. Something is off. Done when you can see the same city twice, spelled differently.',
    'lesson9.step2': 'The bug is in silver: “clean” trims the city name but does not normalize its case, so `Taipei` and `taipei` count as two cities. Select “clean” and change the city expression to `UPPER(TRIM(city))`.',
    'lesson9.step3': 'Fixing the code does not fix results already sent. Gold\'s [[state]] was built from the buggy rows, so the only honest repair is to replay history: press {stop}, then {run} again from the start. Bronze kept every raw order, which is what makes this possible. Done when gold lists each city once, in upper case.',
    'lesson9.step4': 'On a real cluster this replay is the expensive part: months of bronze to read again, and every table downstream to rebuild. Compare the new gold with the old one.',
    'lesson9.q4': 'What is TAIPEI\'s revenue_twd now?',
  },
  'zh-TW': {
    'lesson9.title': 'Bronze → silver → gold',
    'lesson9.summary': 'silver 層藏著一個 bug 的分層 pipeline。修好它，從頭重播歷史資料，比較修正前後的 gold。',
    'lesson9.step1': '這就是 [[medallion]]：bronze 原封不動地保存進來的訂單，silver 負責過濾、清洗和去重，gold 算出每個城市的營收。按下「{run}」，看看 `gold`。好像哪裡怪怪的。看到同一個城市因為寫法不同出現兩次，就算完成。',
    'lesson9.step2': 'bug 在 silver：「clean」有去掉城市名稱前後的空白，卻沒有統一大小寫，所以 `Taipei` 和 `taipei` 被當成兩個城市。選取「clean」，把 city 的運算式改成 `UPPER(TRIM(city))`。',
    'lesson9.step3': '修好程式，並不會修好已經送出去的結果。gold 的 [[state]] 是用有 bug 的資料算出來的，唯一可靠的修法就是重播歷史：按下「{stop}」，再按「{run}」從頭跑一次。bronze 保留了每一筆原始訂單，這件事才做得到。gold 裡每個城市只出現一次、而且都是大寫，就算完成。',
    'lesson9.step4': '在真正的 cluster 上，重播才是最貴的部分：要把好幾個月的 bronze 重讀一遍，下游每張表都得重建。比較新舊兩版的 gold。',
    'lesson9.q4': 'TAIPEI 現在的 revenue_twd 是多少？',
  },
};
export default messages;
