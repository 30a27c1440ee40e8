import type { PipelineDocument } from '../pipeline/document.ts';
import { compile } from '../pipeline/compile.ts';
import type { ClusterSession } from './clusterSession.ts';
import type { WorkersSession } from './workersSession.ts';
import type { LoadOptions, LoadResult, RunSnapshot, RunsOn } from './protocol.ts';
import { runsOnWorkers } from './runtimeChoice.ts';

/**
 * The engine worker's two ways to run a job behind one control plane: in process (ClusterSession:
 * every subtask here, stepping and inspection) or on Web Workers (WorkersSession). Each load picks
 * one; only the chosen session's snapshots reach the page, so the UI reads one stream either way.
 */
export class EngineSessions {
  private on: RunsOn = 'inProcess';

  constructor(
    readonly inProcess: ClusterSession,
    readonly workers: WorkersSession,
  ) {}

  get runsOn(): RunsOn {
    return this.on;
  }

  onSnapshot(l: (s: RunSnapshot) => void, opts: { credit?: boolean } = {}): void {
    this.inProcess.onSnapshot((s) => this.on === 'inProcess' && l(s), opts);
    this.workers.onSnapshot((s) => this.on === 'workers' && l(s), opts);
  }

  snapshotApplied(heldRows?: Record<string, number>): void {
    if (this.on === 'workers') this.workers.snapshotApplied(heldRows);
    else this.inProcess.snapshotApplied(heldRows);
  }

  async load(doc: PipelineDocument, opts: LoadOptions): Promise<LoadResult> {
    const { plan } = compile(doc);
    const want: RunsOn = plan && runsOnWorkers(plan, opts) ? 'workers' : 'inProcess';
    if (want !== this.on) {
      // The other session lets go of its job first (its storage, its workers), without a word on screen.
      const was = this.on;
      this.on = want;
      if (was === 'workers') await this.workers.unload();
      else await this.inProcess.stop();
    }
    return want === 'workers' ? this.workers.load(doc, opts) : this.inProcess.load(doc, opts);
  }
}
