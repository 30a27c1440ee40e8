import type { SourceDefinition } from '../../core/source.ts';
import { jsonLinesReader } from '../../core/source.ts';
import type { FileSourceParams } from '../../pipeline/kinds/fileSource.ts';
import { fileFormatOf } from '../../pipeline/kinds/fileSource.ts';
import { CsvReader } from '../formats/csvReader.ts';
import { JsonArrayReader } from '../formats/jsonArrayReader.ts';
import type { LineSource } from '../../core/lineSource.ts';
import { inputLines } from '../../core/lineSource.ts';

/**
 * The engine never opens files: the runtime hands the input over, as lines (CLI `--input`) or as
 * random-access bytes read in blocks (a file dropped in the app, kept as a Blob). Bad records
 * come back as error records that SourceTask dead-letters with their line.
 */
export const fileSource: SourceDefinition<FileSourceParams> = {
  kind: 'fileSource',
  open(params, env) {
    const input = env.input;
    const lines: LineSource = inputLines(input);
    const name = input?.name ?? params.path;
    switch (fileFormatOf(params, name)) {
      case 'csv':
        return new CsvReader(lines, { delimiter: params.delimiter ?? (/\.tsv$/i.test(name ?? '') ? '\t' : ','), schema: params.schema });
      case 'json':
        return new JsonArrayReader(lines);
      default:
        return jsonLinesReader(lines);
    }
  },
};
