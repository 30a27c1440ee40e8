import { FlinkSQL } from 'dt-sql-parser';
const p = new FlinkSQL();
for (const q of process.argv.slice(2)) { const e = p.validate(q); console.log(e.length ? 'ERR ' + e.map(x=>x.message).join('; ') : 'ok', '::', q); }
