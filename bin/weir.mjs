#!/usr/bin/env node
// The CLI is written in TypeScript under src/cli; tsx compiles it on the fly so that the
// command, the tests and the browser all run the very same engine sources.
import { register } from 'tsx/esm/api';
register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
