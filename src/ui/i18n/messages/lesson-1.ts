import type { MessageArea } from '../i18n.ts';

/** Lesson 1: stateless vs stateful, told with the coffee-shop door camera. */
const messages: MessageArea = {
  en: {
    'lesson1.title': 'Stateless vs stateful',
    'lesson1.summary': 'A camera at a coffee shop door. A filter forgets each event once it has passed it on; a per-customer visit count has to remember.',
    'lesson1.step1': 'The camera on the left sends one event per thing a customer does: `enter`, `order`, `leave`. Press {run} and watch two branches work on the same stream. Done when `visits_per_customer` has its first row.',
    'lesson1.step2': 'The top branch is a filter: it looks at one event, decides, and forgets it. The bottom branch counts entries per customer, so it must keep a [[state|state]] row per customer. Select “Visits per customer” and open the {stateTab} tab: watch the table grow as new customers walk in. Done when it holds 10 keys.',
    'lesson1.step3': 'The state is what makes the question below answerable at all: no single event knows how often someone came in. Look at the `visits_per_customer` view.',
    'lesson1.q3': 'Which customer came in most often? (name or id)',
    'lesson1.step4': 'Stateless operators are cheap to change. Edit the filter so that it keeps drinks of $4 or more (`amount >= 4`), run again to the end, and note that the visit count did not care: it never saw the filter\'s input.',
  },
  'zh-TW': {
    'lesson1.title': '無狀態 vs 有狀態',
    'lesson1.summary': '咖啡店門口的攝影機。filter 把事件傳下去之後就忘了；要算每位顧客來了幾次，就一定得記住。',
    'lesson1.step1': '左邊的攝影機會把顧客的每個動作都送成一個事件：`enter`、`order`、`leave`。按下「{run}」，看同一條 stream 被兩條分支處理。`visits_per_customer` 出現第一列就算完成。',
    'lesson1.step2': '上面那條是 filter：看一個事件、做判斷、然後就忘掉。下面那條要算每位顧客進門幾次，所以必須替每位顧客保留一列 [[state]]。選取「Visits per customer」並打開「{stateTab}」分頁，看著新顧客進門時表格一列一列長出來。累積到 10 個 key 就算完成。',
    'lesson1.step3': '有了 state，下面這個問題才有辦法回答：單看任何一個事件，都不知道某人來過幾次。去看 `visits_per_customer` 這個 view。',
    'lesson1.q3': '哪位顧客來得最頻繁？（填名字或 id）',
    'lesson1.step4': '無狀態的運算子改起來很便宜。把 filter 改成只留下 $4 以上的飲料（`amount >= 4`），重新跑到結束。你會發現來店次數完全不受影響：它本來就看不到 filter 的輸入。',
  },
};
export default messages;
