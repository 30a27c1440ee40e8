import { inputLines } from '../../core/lineSource.ts';
import type { SourceDefinition } from '../../core/source.ts';
import type { FeedSourceParams } from '../../pipeline/kinds/feedSource.ts';
import { DEFAULT_FEED_BUFFER } from '../../pipeline/kinds/feedSource.ts';
import { FeedDecoder } from '../formats/feedMessages.ts';
import { FeedLog } from '../feedLog.ts';

/** The reader of a live feed's messages: decoding and the replay buffer; the runtime owns the connection. */
export function feedLog(nodeId: string, params: FeedSourceParams, opts: { retain: number; session: string }): FeedLog {
  return new FeedLog({
    name: `live feed "${nodeId}" (${params.url})`,
    decoder: new FeedDecoder({ format: params.format ?? 'json', path: params.path, columns: params.columns, delimiter: params.delimiter, schema: params.schema }),
    limit: params.bufferLimit ?? DEFAULT_FEED_BUFFER,
    onFull: params.onBufferFull ?? 'fail',
    retain: opts.retain,
    session: opts.session,
  });
}

/**
 * The engine opens no sockets: a runtime that can (the designer's worker, `weir run`) connects the
 * feed and hands its reader over. Without one, the input given to the run, if any, is read as
 * recorded messages, one per line (pipeline tests replay a capture this way); else the feed is empty.
 */
export const feedSource: SourceDefinition<FeedSourceParams> = {
  kind: 'feedSource',
  open(params, env) {
    const log = feedLog(env.input?.name ?? 'feed', params, { retain: Infinity, session: 'recorded' });
    const lines = inputLines(env.input);
    for (let i = 0, line = lines.line(0); line !== undefined; line = lines.line(++i)) if (line.trim() !== '') log.push(line);
    log.end();
    return log;
  },
};
