// `node --expose-gc --import tsx bench/node/memory.ts <keys>`: prints one JSON line of figures.
import { bytesPerKey } from '../suites/memory.ts';

const keys = Number(process.argv[2] ?? 1_000_000);
const r = bytesPerKey(keys);
console.log(JSON.stringify({ 'memory.bytesPerKey': r.bytesPerKey, 'memory.viewBytesPerKey': r.viewBytesPerKey, 'memory.pipelineBytesPerKey': r.pipelineBytesPerKey, 'memory.keysMeasured': keys }));
