import type { SourceDefinition } from '../source.ts';
import { jsonLinesReader } from '../source.ts';
import type { FileSourceParams } from '../../pipeline/kinds/fileSource.ts';

/**
 * The engine never opens files: the runtime hands the lines over (CLI `--input`, a file loaded
 * in the app). Bad lines come back as error records that SourceTask dead-letters with their line.
 */
export const fileSource: SourceDefinition<FileSourceParams> = {
  kind: 'fileSource',
  open: (_params, env) => jsonLinesReader(env.input?.lines ?? []),
};
