/** The gallery's examples that start as Flink SQL: the file each becomes, its title and the script. */
import { MEDALLION_SQL, SALES_BY_STORE_SQL } from './seedScripts.ts';

export const GALLERY_SCRIPTS = [
  {
    file: 'sql-medallion.json',
    name: 'medallion_sql',
    title: 'Flink SQL: silver and gold layers',
    description:
      'A blog post\'s medallion pipeline, planned from its Flink SQL: a silver wide table from three LEFT JOINs, then gold tables: cities ranked per hour (TUMBLE, then ROW_NUMBER() Top-N), payment methods per five minutes, and sales per product.',
    sql: MEDALLION_SQL,
  },
  {
    file: 'sql-sales-by-store.json',
    name: 'sales_by_store_sql',
    title: 'Flink SQL: CREATE TABLE … AS SELECT',
    description: 'A materialised table of sales per store, written as CREATE TABLE sales_by_store AS SELECT … GROUP BY and planned from the script into a GROUP BY that keeps an upsert table up to date.',
    sql: SALES_BY_STORE_SQL,
  },
];
