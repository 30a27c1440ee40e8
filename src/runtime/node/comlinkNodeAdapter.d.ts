// comlink ships types for its Node adapter only next to the .mjs as node-adapter.d.ts.
declare module 'comlink/dist/esm/node-adapter.mjs' {
  export { default } from 'comlink/dist/esm/node-adapter';
}
