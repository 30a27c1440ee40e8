// `node --import tsx bench/node/sqlImport.ts <runs>`: the 50-statement import in Node; prints one JSON line of figures.
import { measureSqlImport } from '../suites/sqlImport.ts';

process.stdout.write(`${JSON.stringify(measureSqlImport(Number(process.argv[2] ?? 30)))}\n`);
