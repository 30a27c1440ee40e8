import { CODE_OBJECTS_SOURCE } from './codeObjects.ts';

/**
 * The driver that runs user code inside its realm, as JavaScript source so every code host
 * evaluates the very same text: in a sandboxed realm of its own (Node `vm` context in a child
 * process) or in the current realm (tests, the in-process fallback).
 *
 * It is evaluated before any user code, so it captures JSON, Object and Reflect while they are
 * still the realm's own: user code may replace `JSON.stringify` or put getters on
 * `Object.prototype` afterwards, and the driver does not notice. Records come in as JSON text and
 * results go out as JSON text: only strings cross the realm boundary, so no object (and no
 * `constructor.constructor`) of the host is ever reachable from user code, and the host parses
 * the result with its own, untouched JSON.
 *
 * Results are checked while they are serialized: plain objects, arrays, strings, finite numbers,
 * booleans and null pass; a Promise, a BigInt, a Symbol key, a function, a class instance, a
 * getter that throws, a cycle or nesting past 100 levels become a precise message for that record.
 *
 * `__weir` is defined on the realm's global as a frozen, non-configurable value, so user code can
 * neither replace it nor intercept it; the host's watchdog runs `__weir.run()` with a time limit.
 */
export const CODE_DRIVER_SOURCE = String.raw`(function (global) {
  'use strict';
  var parse = JSON.parse, stringify = JSON.stringify, keys = Object.keys, getProto = Object.getPrototypeOf;
  var ownDesc = Object.getOwnPropertyDescriptor, ownSymbols = Object.getOwnPropertySymbols, isArray = Array.isArray;
  var apply = Reflect.apply, freeze = Object.freeze, define = Object.defineProperty, Str = String, Fn = Function;
  var OBJECT = Object.prototype, PROMISE = Promise.prototype, ERROR = Error.prototype;
  var SHAPE = {}, shapeMessage = '', fn = null, obj = null, at = -1, pending = null, seen = [], lineAt = new Int32Array(1);
  var MAX_DEPTH = 100, MAX_MESSAGE = 500;

  function clip(s) { return s.length > MAX_MESSAGE ? s.slice(0, MAX_MESSAGE) + '…' : s; }
  function fail(path, what) { shapeMessage = (path === '' ? 'the result ' : 'field ' + path + ' ') + what; return SHAPE; }
  function errorText(e) {
    try {
      if (e !== null && typeof e === 'object') {
        var m = e.message;
        // A stack overflow says only "Maximum call stack size exceeded": name the likely cause.
        if (e.name === 'RangeError' && typeof m === 'string' && /call stack/i.test(m)) return 'the record is nested too deeply, or the code recurses too deeply, to process (' + clip(m) + '); flatten the record or bound the recursion';
        if (typeof m === 'string' && m !== '') return clip(m);
        return describe(e) + ' (not an Error with a message)';
      }
      if (typeof e === 'string') return clip(e);
      return describe(e) + ' (not an Error: throw new Error("…") to give a reason)';
    } catch (_) {
      return 'a value whose message could not be read';
    }
  }
  // The line of the user's code a throw came from: the innermost frame of the code loaded by
  // load() below. Its function body starts three lines into what the Function constructor
  // compiles (the header, then "use strict"), and the transpiler keeps the user's lines.
  var execRe = RegExp.prototype.exec, splitStr = String.prototype.split, indexOfStr = String.prototype.indexOf, Num = Number;
  var FRAME_END = /<anonymous>:(\d+):\d+\)?\s*$/;
  function thrownLine(e) {
    try {
      var s = e !== null && typeof e === 'object' ? e.stack : undefined;
      if (typeof s !== 'string') return 0;
      var frames = apply(splitStr, s, ['\n']);
      for (var i = 0; i < frames.length; i++) {
        if (apply(indexOfStr, frames[i], ['eval at load ']) < 0) continue;
        var m = apply(execRe, FRAME_END, [frames[i]]);
        return m ? Num(m[1]) - 3 : 0;
      }
    } catch (_) { /* an unreadable stack names no line */ }
    return 0;
  }
  // The answer for code that threw: its reason, and its line when known.
  function thrownAnswer(e) {
    var line = thrownLine(e), a = { e: errorText(e) };
    if (line > 0) a.l = line;
    return a;
  }
  function thrown(e) { return stringify(thrownAnswer(e)); }
  function describe(v) {
    if (v === null) return 'null';
    if (v === undefined) return 'undefined';
    var t = typeof v;
    if (t === 'bigint') return 'the BigInt ' + Str(v) + 'n';
    if (t === 'symbol') return 'a Symbol';
    if (t === 'function') return 'a function';
    if (t !== 'object') return clip(stringify(v));
    if (isArray(v)) return 'an array';
    var p = getProto(v);
    if (p === PROMISE) return 'a Promise';
    if (p === OBJECT || p === null) return 'an object';
    var c = p && ownDesc(p, 'constructor');
    var name = c && typeof c.value === 'function' && ownDesc(c.value, 'name');
    return name && typeof name.value === 'string' && name.value !== '' ? 'a ' + clip(name.value) : 'an object with a custom prototype';
  }
  function join(path, k) { return path === '' ? k : path + '.' + k; }

  // Serializes plain data to JSON text (undefined for an omitted property), or throws SHAPE.
  function ser(v, path, depth) {
    switch (typeof v) {
      case 'string': return stringify(v);
      case 'number':
        if (v !== v || v === Infinity || v === -Infinity) throw fail(path, 'is ' + Str(v) + '; a record holds finite numbers only');
        return Str(v);
      case 'boolean': return v ? 'true' : 'false';
      case 'undefined': return undefined;
      case 'bigint': throw fail(path, 'is ' + describe(v) + '; a record holds JSON numbers: convert it with Number(...) or String(...)');
      case 'symbol': throw fail(path, 'is a Symbol; a record holds plain data');
      case 'function': throw fail(path, 'is a function; a record holds plain data');
    }
    if (v === null) return 'null';
    if (depth >= MAX_DEPTH) throw fail(path, 'nests deeper than ' + MAX_DEPTH + ' levels');
    for (var s = 0; s < depth; s++) if (seen[s] === v) throw fail(path, 'refers back to itself (a cycle); a record is a tree of plain data');
    seen[depth] = v;
    var out;
    if (isArray(v)) {
      out = '[';
      var n = v.length;
      for (var i = 0; i < n; i++) {
        var x = ser(v[i], path + '[' + i + ']', depth + 1);
        out += (i ? ',' : '') + (x === undefined ? 'null' : x);
      }
      return out + ']';
    }
    var p = getProto(v);
    if (p === PROMISE || (p !== OBJECT && p !== null && typeof v.then === 'function')) {
      throw fail(path, 'is a Promise: user code must return its result synchronously (an async function always returns a Promise; remove async/await)');
    }
    if (p !== OBJECT && p !== null) throw fail(path, 'is ' + describe(v) + ', not plain data (an object, array, string, number, boolean or null)');
    var syms = ownSymbols(v);
    if (syms.length) throw fail(path, 'has ' + syms.length + ' Symbol key' + (syms.length > 1 ? 's' : '') + '; a record has string keys only');
    var ks = keys(v);
    out = '{';
    var first = true;
    for (var j = 0; j < ks.length; j++) {
      var k = ks[j], d = ownDesc(v, k), val;
      if (d === undefined) continue;
      if ('value' in d) val = d.value;
      else if (d.get === undefined) val = undefined;
      else {
        try { val = apply(d.get, v, []); } catch (e) { throw fail(join(path, k), 'has a getter that threw: ' + errorText(e)); }
      }
      var y = ser(val, join(path, k), depth + 1);
      if (y === undefined) continue;
      out += (first ? '' : ',') + stringify(k) + ':' + y;
      first = false;
    }
    return out + '}';
  }

  // The fast path: the realm's own JSON.stringify (captured) with a replacer that refuses what is not
  // plain data. It cannot say where the problem is, so on any refusal the slow walk above runs and
  // names the field (a cycle, a throwing getter and too deep a nesting also end up there).
  function check(k, v) {
    switch (typeof v) {
      case 'object':
        if (v === null || isArray(v)) return v;
        var p = getProto(v);
        if ((p !== OBJECT && p !== null) || ownSymbols(v).length) throw SHAPE;
        return v;
      case 'number':
        if (v !== v || v === Infinity || v === -Infinity) throw SHAPE;
        return v;
      case 'bigint':
      case 'symbol':
      case 'function':
        throw SHAPE;
      default:
        return v;
    }
  }
  function serialize(r) {
    try {
      return stringify(r, check);
    } catch (e) {
      seen = [];
      ser(r, '', 0);
      // The walk found nothing wrong (a getter that throws only once?): report the first failure.
      if (e === SHAPE) throw fail('', 'is not plain data (an object, array, string, number, boolean or null)');
      throw e;
    }
  }

  // The code sees the line tracker as a parameter: the host marks loop and function entries with
  // __weirAt[0] = line, so a watchdog that stops the code can say which line it was running.
  function load(js, form, tracker) {
    if (tracker) lineAt = tracker;
    var value = new Fn('__weirAt', '"use strict";\nreturn ' + js + ';')(lineAt);
    if (form === 'object') {
      if (value === null || typeof value !== 'object') return 'notObject';
      obj = value;
      return stringify(objectShape(value));
    }
    if (typeof value !== 'function') return 'notFunction';
    fn = value;
    return 'ok';
  }

  // mode 'value': each result serialized; mode 'test': each result's truthiness (a filter).
  function call(mode, rowsJson) {
    var rows = parse(rowsJson), out = '[', n = rows.length;
    for (var i = 0; i < n; i++) {
      at = i;
      lineAt[0] = 0;
      var item;
      try {
        var r = fn(rows[i]);
        if (mode === 'test') {
          if (r !== null && typeof r === 'object' && getProto(r) === PROMISE) throw fail('', 'is a Promise: user code must return its result synchronously (an async function always returns a Promise; remove async/await)');
          item = r ? '{"v":true}' : '{"v":false}';
        } else {
          var x = serialize(r);
          // Nothing returned (a block body without return) is told apart from a returned null.
          item = x === undefined ? '{"u":1}' : '{"v":' + x + '}';
        }
      } catch (e) {
        item = e === SHAPE ? '{"s":' + stringify(shapeMessage) + '}' : thrown(e);
      }
      out += (i ? ',' : '') + item;
    }
    at = -1;
    return out + ']';
  }

${CODE_OBJECTS_SOURCE}

  var driver = freeze({
    // The host hands over strings, then runs __weir.run() under its watchdog.
    set: function (op, a, b, c) { pending = [op, a, b, c]; },
    run: function () {
      var p = pending;
      pending = null;
      if (p[0] === 'load') return load(p[1], p[2], p[3]);
      if (p[0] === 'invoke') return invoke(p[1]);
      if (p[0] === 'invokeData') return invokeData(p[1]);
      return call(p[1], p[2]);
    },
    at: function () { return at; },
    line: function () { return lineAt[0]; },
    size: function () { return bytes; },
  });
  define(global, '__weir', { value: driver, writable: false, configurable: false, enumerable: false });
  return driver;
})(globalThis)`;

/** The driver's functions as seen from the host. */
export interface CodeDriver {
  set(op: 'load', js: string, form: CodeForm, tracker?: Int32Array): void;
  set(op: 'invoke', requestJson: string): void;
  set(op: 'call', mode: 'value' | 'test', rowsJson: string): void;
  /** Only for a host in the driver's own realm: the request as objects, answered as objects. */
  set(op: 'invokeData', request: object): void;
  /** JSON text; for 'invokeData', objects that no one but the host holds (read them as such). */
  run(): string;
  at(): number;
  /** The line of the user's code last marked (a loop or function entry), 0 when none. */
  line(): number;
  /** About how many characters of JSON the last invoke's answers come to. */
  size(): number;
}

/** A function such as (row) => ..., or an object literal of methods (process, aggregate code). */
export type CodeForm = 'function' | 'object';

/** One record's outcome as the driver reports it: a value, the code's own error, or a wrong shape. */
export type DriverOutcome = { v: unknown } | { u: 1 } | { e: string; l?: number } | { s: string };
