// Self time per function from a .cpuprofile (V8 / Chromium format): `node --import tsx bench/profile/summarize.ts file [top]`.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export function selfTimes(p: Profile): { name: string; ms: number; share: number }[] {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let total = 0;
  p.samples.forEach((id, i) => {
    const n = byId.get(id)!;
    const f = n.callFrame;
    const name = `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
    const dt = (p.timeDeltas[i] ?? 0) / 1000;
    self.set(name, (self.get(name) ?? 0) + dt);
    total += dt;
  });
  return [...self].map(([name, ms]) => ({ name, ms, share: ms / total })).sort((a, b) => b.ms - a.ms);
}

if (process.argv[2]) {
  const top = Number(process.argv[3] ?? 30);
  for (const r of selfTimes(JSON.parse(readFileSync(process.argv[2], 'utf8')) as Profile).slice(0, top)) {
    console.log(`${(r.share * 100).toFixed(1).padStart(5)}%  ${r.ms.toFixed(0).padStart(6)} ms  ${r.name}`);
  }
}
