import type { MessageArea } from '../i18n.ts';

/** The state line of a live feed source on its canvas node. zh-TW keeps WebSocket and SSE in English. */
const messages: MessageArea = {
  en: {
    'feed.state.label': 'Feed {node}: {state}',
    'feed.state.connecting': 'connecting…',
    'feed.state.connectingTitle': 'Opening {url}',
    'feed.state.live': 'live · {rate} msg/s',
    'feed.state.liveTitle': '{received} messages received from {url}; {buffered} kept for replay after a restart',
    'feed.state.reconnecting': 'reconnecting in {s} s (attempt {attempt})',
    'feed.state.reconnectingTitle': 'The connection ended: {reason}',
    'feed.state.closed': 'closed: {reason}',
    'feed.state.closedTitle': 'The feed is closed and will not reconnect. Stop the run, then run it again to reconnect.',
    'feed.state.dropped': '{n} dropped',
    'feed.state.droppedTitle': 'Messages dropped because the replay buffer was full (onBufferFull: drop); each gap is a dead letter',
  },
  'zh-TW': {
    'feed.state.label': '資料流 {node}：{state}',
    'feed.state.connecting': '連線中…',
    'feed.state.connectingTitle': '正在開啟 {url}',
    'feed.state.live': '即時 · 每秒 {rate} 則訊息',
    'feed.state.liveTitle': '已從 {url} 收到 {received} 則訊息；保留 {buffered} 則，供重新啟動後重播',
    'feed.state.reconnecting': '{s} 秒後重新連線（第 {attempt} 次）',
    'feed.state.reconnectingTitle': '連線已中斷：{reason}',
    'feed.state.closed': '已關閉：{reason}',
    'feed.state.closedTitle': '資料流已關閉，不會再重新連線。停止執行後再執行一次即可重新連線。',
    'feed.state.dropped': '已丟棄 {n} 則',
    'feed.state.droppedTitle': '因重播緩衝區已滿而丟棄的訊息（onBufferFull: drop）；每段缺口都記為一筆 dead letter',
  },
};

export default messages;
