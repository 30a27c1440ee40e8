// The code host process: started by bridge.mjs under Node's permission model (it may read only
// this file; no writes, no child processes, no workers) with a bounded heap. Each node's code gets
// a vm context of its own holding only the JavaScript built-ins: no process, require, import(),
// timers, fetch, WebSocket or console. The host sends JSON text and gets JSON text back.
import vm from 'node:vm';

const realms = new Map();
const REALM_GLOBALS = `(function (hostNow) {
  'use strict';
  var quiet = function () {};
  var consoleObject = Object.freeze({ log: quiet, info: quiet, warn: quiet, error: quiet, debug: quiet, trace: quiet, dir: quiet, table: quiet });
  var performanceObject = Object.freeze({ now: function () { return +hostNow(); } });
  Object.defineProperty(globalThis, 'console', { value: consoleObject, writable: true, configurable: true });
  Object.defineProperty(globalThis, 'performance', { value: performanceObject, writable: true, configurable: true });
})`;
const run = new vm.Script('__weir.run()', { importModuleDynamically: refuseImport });

function refuseImport() {
  throw new Error('import() is not available to user code');
}

function handle(m) {
  if (m.t === 'load') {
    const context = vm.createContext(Object.create(null), { codeGeneration: { strings: true, wasm: false }, microtaskMode: 'afterEvaluate' });
    // performance.now for timing code and a console whose output goes nowhere: made in the realm,
    // the host's clock reachable only through a closure, never as an object user code can walk.
    vm.runInContext(REALM_GLOBALS, context)(() => performance.now());
    const driver = new vm.Script(m.driver, { importModuleDynamically: refuseImport }).runInContext(context);
    driver.set('load', m.js, m.form);
    const result = timed(context, driver, m.timeoutMs);
    if (result.t === 'ok') realms.set(m.id, { context, driver });
    return result;
  }
  if (m.t === 'call' || m.t === 'invoke') {
    const realm = realms.get(m.id);
    if (!realm) return { t: 'error', message: `no code loaded as ${m.id}` };
    if (m.t === 'call') realm.driver.set('call', m.mode, m.rows);
    else realm.driver.set('invoke', m.request);
    const result = timed(realm.context, realm.driver, m.timeoutMs);
    // Code stopped in the middle may have left its realm half-changed: it is not used again.
    if (result.t === 'timeout') realms.delete(m.id);
    return result;
  }
  return { t: 'error', message: `unknown request ${m.t}` };
}

function timed(context, driver, timeoutMs) {
  try {
    return { t: 'ok', value: String(run.runInContext(context, { timeout: timeoutMs })) };
  } catch (e) {
    if (e && e.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return { t: 'timeout', at: driver.at(), line: driver.line() };
    // Only the load step can throw here (a call catches per record): the code's top level threw.
    return { t: 'threw', message: String(e && typeof e === 'object' && 'message' in e ? e.message : e).slice(0, 500) };
  }
}

process.on('message', (m) => {
  let reply;
  try {
    reply = handle(m);
  } catch (e) {
    reply = { t: 'error', message: String(e && e.message ? e.message : e) };
  }
  process.send(reply);
});
// A promise user code left behind may reject later; it must not end this process.
process.on('unhandledRejection', () => {});
process.on('disconnect', () => process.exit(0));
