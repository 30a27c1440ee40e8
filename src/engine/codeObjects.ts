/**
 * The part of the code driver that serves code with a context: process functions (keyed state,
 * timers, emit), broadcast functions (a read-only view of the rules) and aggregate functions
 * (create/add/retract/get/merge on a plain accumulator). It is spliced into CODE_DRIVER_SOURCE and
 * uses the primordials and the serializer captured there.
 *
 * State never lives in the code's realm. Each process call brings a snapshot of the current key's
 * state (or, in a crossing of several calls, the first call of each key brings it and the later
 * calls of that key start from what the earlier ones left); the code reads and writes a copy, and
 * the answer carries its writes as a log the host replays on its own state backend, in order,
 * after the call. A crossing keeps nothing for the next one. So the backend stays the only
 * owner of state, checkpoints see exactly what the host applied, and a call that throws or breaks
 * a limit changes nothing. Reducing and aggregating state run the user's reduce/add here and hand
 * the host the new accumulator. The rules of a broadcast function are mirrored here from the
 * changes the host sends with each call.
 */
export const CODE_OBJECTS_SOURCE = String.raw`
  var MapCtor = Map, ErrorCtor = Error;

  // What the host needs to know of an object literal: its methods, and its state declarations
  // with functions replaced by markers (the host validates declarations with its own messages).
  function objectShape(v) {
    var methods = [], ks = keys(v), state = null;
    for (var i = 0; i < ks.length; i++) {
      var d = ownDesc(v, ks[i]);
      if (d && 'value' in d && typeof d.value === 'function') methods.push(ks[i]);
    }
    var decls = ownDesc(v, 'state');
    if (decls && 'value' in decls && decls.value !== undefined) {
      var raw = decls.value;
      if (raw === null || typeof raw !== 'object' || isArray(raw)) state = { invalid: true };
      else {
        state = {};
        var names = keys(raw);
        for (var j = 0; j < names.length; j++) state[names[j]] = declShape(raw[names[j]]);
      }
    }
    return { methods: methods, state: state };
  }
  function declShape(d) {
    if (d === null || typeof d !== 'object') return d === undefined ? null : typeof d === 'function' ? { fn: true } : d;
    var out = {}, ks = keys(d);
    for (var i = 0; i < ks.length; i++) {
      var x = d[ks[i]];
      out[ks[i]] = typeof x === 'function' ? { fn: true } : x === null || typeof x !== 'object' ? x : Str(x);
    }
    return out;
  }

  // Serializes a value the code hands over (a state value, an emitted row) or throws SHAPE naming it.
  function dataOf(v, what) {
    try {
      var j = serialize(v);
      return j === undefined ? 'null' : j;
    } catch (e) {
      if (e === SHAPE && what !== '') shapeMessage = what + ': ' + shapeMessage.replace(/^the result /, 'the value ');
      throw e;
    }
  }
  function userError(m) { return new ErrorCtor(m); }

  // A value the code hands over, checked: a primitive as it is, else its JSON text in a box, so
  // each reader gets a copy of its own (copyOf) and no one holds what the code could still change.
  // \`bytes\` adds up about how much JSON the answers of a crossing would be (see answerBound).
  var bytes = 0;
  function held(v, what) {
    switch (typeof v) {
      case 'string': bytes += v.length + 2; return v;
      case 'boolean': bytes += 5; return v;
      case 'number': if (v - v === 0) { bytes += 8; return v; } break;
    }
    if (v === null) { bytes += 4; return null; }
    var j = dataOf(v, what);
    bytes += j.length;
    return { j: j };
  }
  function copyOf(h) { return h !== null && typeof h === 'object' ? parse(h.j) : h; }
  function textOf(h) { return h !== null && typeof h === 'object' ? h.j : stringify(h); }

  // What the host hands over, copied, so the code never holds an object of the host: plain data
  // copied by a walk, anything else (a non-finite number, an undefined in an array, a class
  // instance) by the JSON round trip that sets what the code sees.
  var NOT_PLAIN = {};
  function copyIn(v, depth) {
    switch (typeof v) {
      case 'string': case 'boolean': return v;
      case 'number': if (v - v === 0) return v; throw NOT_PLAIN;
      case 'object': break;
      default: throw NOT_PLAIN;
    }
    if (v === null) return null;
    if (depth > MAX_DEPTH) throw NOT_PLAIN;
    var i, x;
    if (isArray(v)) {
      var a = [];
      for (i = 0; i < v.length; i++) { x = v[i]; if (x === undefined) throw NOT_PLAIN; a.push(copyIn(x, depth + 1)); }
      return a;
    }
    if (getProto(v) !== OBJECT) throw NOT_PLAIN;
    var o = {}, ks = keys(v);
    for (i = 0; i < ks.length; i++) {
      // An own "__proto__" (JSON.parse makes one) would set the copy's prototype instead.
      if (ks[i] === '__proto__') throw NOT_PLAIN;
      x = v[ks[i]];
      if (x !== undefined) o[ks[i]] = copyIn(x, depth + 1);
    }
    return o;
  }
  function takeIn(v) {
    try { return copyIn(v, 0); } catch (e) { if (e !== NOT_PLAIN) throw e; return parse(stringify(v)); }
  }

  // --- process functions ---------------------------------------------------------------------
  var cur = null, ops = null, out = null, tm = null, call1 = null, handles = null, ctxs = null;
  // The keys of one crossing: a request with \`st\` seeds its key's slot \`ks\` (one number per key,
  // given by the host), the later requests of that key build on what the earlier ones left. A slot
  // holds its state as held values (a map: a Map of them), so no call sees an object an earlier
  // call could have mutated, and \`pend\` (op, name, held value, map key) reaches the slot only when
  // the call ends without a throw.
  var slots = [], base = null, pend = null;

  function stateHandles() {
    var decls = obj.state, h = {}, names = keys(decls);
    for (var i = 0; i < names.length; i++) h[names[i]] = handleFor(names[i], decls[names[i]]);
    return freeze(h);
  }
  function cell(n) { var c = cur[n]; return c === undefined ? (cur[n] = fresh(n)) : c; }
  function fresh(n) {
    var s = base[n];
    if (s === null || s === undefined) return { has: false, v: undefined };
    if (obj.state[n].kind !== 'map') return { has: true, v: copyOf(s) };
    var m = new MapCtor();
    s.forEach(function (h, k) { m.set(k, copyOf(h)); });
    return { has: true, v: m };
  }
  function seeded(st) {
    var b = {}, names = keys(st);
    for (var i = 0; i < names.length; i++) {
      var s = st[names[i]];
      if (s === null) b[names[i]] = null;
      else if (obj.state[names[i]].kind === 'map') {
        var m = new MapCtor();
        for (var e = 0; e < s.length; e++) m.set(s[e][0], kept(s[e][1]));
        b[names[i]] = m;
      } else b[names[i]] = kept(s);
    }
    return b;
  }
  // The host's data (already a copy) as a held value.
  function kept(v) { return v !== null && typeof v === 'object' ? { j: stringify(v) } : v; }
  function commit() {
    for (var i = 0; i < pend.length; i += 4) {
      var n = pend[i + 1], h = pend[i + 2], s = base[n];
      switch (pend[i]) {
        case 's': case 'U': base[n] = h; break;
        case 'c': base[n] = null; break;
        case 'a': base[n] = { j: s === null || s === undefined || s.j.length === 2 ? '[' + textOf(h) + ']' : s.j.slice(0, -1) + ',' + textOf(h) + ']' }; break;
        case 'p': if (s === null || s === undefined) base[n] = s = new MapCtor(); s.set(pend[i + 3], h); break;
        case 'r': if (s !== null && s !== undefined) s.delete(pend[i + 3]); break;
      }
    }
  }
  function handleFor(n, d) {
    var what = 'state "' + n + '"';
    function write(h) { var c = cell(n); c.has = true; c.v = copyOf(h); ops.push(['s', n, copyOf(h)]); pend.push('s', n, h, null); }
    function clear() { var c = cell(n); c.has = false; c.v = undefined; ops.push(['c', n]); pend.push('c', n, null, null); }
    switch (d.kind) {
      case 'value':
        return freeze({
          value: function () { var c = cell(n); return c.has ? c.v : undefined; },
          update: function (v) { if (v === undefined || v === null) clear(); else write(held(v, what)); },
          clear: clear,
        });
      case 'list':
        return freeze({
          get: function () { var c = cell(n); return c.has ? c.v.slice() : []; },
          add: function (v) { var h = held(v, what), c = cell(n); if (!c.has) { c.has = true; c.v = []; } c.v.push(copyOf(h)); ops.push(['a', n, copyOf(h)]); pend.push('a', n, h, null); },
          update: function (vs) {
            if (!isArray(vs)) throw userError(what + ': update(values) takes an array');
            var h = held(vs, what), c = cell(n); c.has = true; c.v = copyOf(h); ops.push(['U', n, copyOf(h)]); pend.push('U', n, h, null);
          },
          clear: clear,
        });
      case 'map':
        var entries = function () { var c = cell(n); if (!c.has) { c.has = true; c.v = new MapCtor(); } return c.v; };
        var mapKey = function (k) {
          if (typeof k === 'string' || typeof k === 'boolean' || (typeof k === 'number' && k === k && k !== Infinity && k !== -Infinity)) return k;
          throw userError(what + ': a map key is text, a finite number or a boolean, not ' + describe(k));
        };
        return freeze({
          get: function (k) { return entries().get(k); },
          put: function (k, v) { mapKey(k); var h = held(v, what + ' at key ' + Str(k)); entries().set(k, copyOf(h)); ops.push(['p', n, k, copyOf(h)]); pend.push('p', n, h, k); },
          remove: function (k) { if (entries().delete(k)) { ops.push(['r', n, k]); pend.push('r', n, null, k); } },
          contains: function (k) { return entries().has(k); },
          entries: function () { var r = []; entries().forEach(function (v, k) { r.push([k, v]); }); return r; },
          keys: function () { var r = []; entries().forEach(function (_v, k) { r.push(k); }); return r; },
          size: function () { return entries().size; },
          isEmpty: function () { return entries().size === 0; },
          clear: function () { cell(n).v = new MapCtor(); ops.push(['c', n]); pend.push('c', n, null, null); },
        });
      case 'reducing':
        return freeze({
          get: function () { var c = cell(n); return c.has ? c.v : undefined; },
          add: function (x) { var c = cell(n), v = copyOf(held(x, what)); write(held(c.has ? d.reduce(c.v, v) : v, what)); },
          clear: clear,
        });
      default:
        return freeze({
          get: function () { var c = cell(n); return c.has ? d.get(c.v) : undefined; },
          add: function (x) { var c = cell(n); write(held(d.add(c.has ? c.v : d.create(), x), what)); },
          clear: clear,
        });
    }
  }
  function timerOp(tag, name) {
    return function (ts) {
      if (typeof ts !== 'number' || ts !== ts || ts === Infinity || ts === -Infinity) throw userError(name + ' needs a finite timestamp in ms, got ' + Str(ts));
      tm.push([tag, ts]);
    };
  }
  function emit(row) {
    var item;
    try { item = { v: copyOf(held(row, 'emitted row')) }; } catch (e) {
      if (e !== SHAPE) throw e;
      item = { s: shapeMessage };
    }
    out.push(item);
  }
  function processContexts() {
    var timers = freeze({
      registerEventTimeTimer: timerOp('re', 'registerEventTimeTimer'),
      registerProcessingTimeTimer: timerOp('rp', 'registerProcessingTimeTimer'),
      deleteEventTimeTimer: timerOp('de', 'deleteEventTimeTimer'),
      deleteProcessingTimeTimer: timerOp('dp', 'deleteProcessingTimeTimer'),
    });
    function common(extra, extraName) {
      var c = {};
      define(c, 'key', { get: function () { return call1.k; }, enumerable: true });
      define(c, 'timestamp', { get: function () { return call1.ts; }, enumerable: true });
      define(c, extraName, { get: extra, enumerable: true });
      c.currentWatermark = function () { return call1.wm; };
      c.currentProcessingTime = function () { return call1.pt; };
      c.state = handles;
      c.timerService = timers;
      c.emit = emit;
      return freeze(c);
    }
    return {
      element: common(function () { return call1.kind; }, 'kind'),
      timer: common(function () { return call1.dom; }, 'timeDomain'),
    };
  }
  // JSON has no infinities: the host sends an unbounded watermark as the string "Infinity" or "-Infinity".
  function numberOrNull(x) { return typeof x === 'string' ? (x === 'Infinity' ? Infinity : -Infinity) : x; }
  function processCall(r) {
    if (!handles) { handles = obj.state ? stateHandles() : freeze({}); ctxs = processContexts(); }
    r.wm = numberOrNull(r.wm);
    call1 = r; cur = {}; ops = []; out = []; tm = []; pend = [];
    if (r.st !== undefined) { base = seeded(r.st); if (r.ks !== undefined) slots[r.ks] = base; }
    else if ((base = slots[r.ks]) === undefined) throw userError('the host sent no state for key slot ' + Str(r.ks));
    if (r.m === 'onTimer') { if (typeof obj.onTimer === 'function') obj.onTimer(r.ts, ctxs.timer); }
    else obj.processElement(r.row, ctxs.element);
    commit();
    return { out: out, ops: ops, tm: tm };
  }

  // --- broadcast functions: the rules, mirrored from the host's changes -----------------------
  var rules = new MapCtor();
  var rulesView = freeze({
    get: function (k) { return rules.get(k); },
    has: function (k) { return rules.has(k); },
    keys: function () { var r = []; rules.forEach(function (_v, k) { r.push(k); }); return r; },
    values: function () { var r = []; rules.forEach(function (v) { r.push(v); }); return r; },
    entries: function () { var r = []; rules.forEach(function (v, k) { r.push([k, v]); }); return r; },
    get size() { return rules.size; },
  });
  function deepFreeze(v) {
    if (v !== null && typeof v === 'object') { var ks = keys(v); for (var i = 0; i < ks.length; i++) deepFreeze(v[ks[i]]); freeze(v); }
    return v;
  }
  function broadcastCall(r) {
    if (r.full) rules = new MapCtor();
    var changes = r.full || r.changes || [];
    for (var i = 0; i < changes.length; i++) {
      if (changes[i][1] === null) rules.delete(changes[i][0]);
      else rules.set(changes[i][0], deepFreeze(changes[i][1]));
    }
    var ctx = freeze({ key: r.k, timestamp: r.ts, currentWatermark: function () { return numberOrNull(r.wm); }, currentProcessingTime: function () { return r.pt; } });
    return { v: copyOf(held(fn(r.row, rulesView, ctx), '')) };
  }

  // --- aggregate functions and other plain method calls ---------------------------------------
  function methodCall(r) {
    var m = obj[r.m];
    if (typeof m !== 'function') throw userError('the code defines no ' + r.m + '()');
    return { v: copyOf(held(apply(m, obj, r.a), 'what ' + r.m + '() returned')) };
  }

  // One request, one answer: {v} or {out, ops, tm} on success, {e} when the code threw, {s} when
  // it handed over something that is not plain data. A request of type "each" carries several
  // requests, answered in one crossing, in order; \`at\` says which one runs, so a watchdog that
  // stops the batch can name its record. \`invoke\` takes and answers JSON text (a host in another
  // process); \`invokeData\` takes the host's objects, which it copies, and answers objects no one
  // else holds (a host in this realm).
  function invoke(json) { return stringify(answer(parse(json))); }
  function invokeData(r) {
    if (r.t !== 'each') return answer(r.t === 'process' ? processRequest(r) : takeIn(r));
    var rs = r.rs, own = [];
    for (var i = 0; i < rs.length; i++) own.push(rs[i].t === 'process' ? processRequest(rs[i]) : takeIn(rs[i]));
    return answer({ t: 'each', rs: own });
  }
  // A process request of the host, field by field: a whole copy would walk its fixed fields too.
  function processRequest(r) {
    return { t: 'process', m: field(r.m), row: field(r.row), ts: field(r.ts), kind: field(r.kind), dom: field(r.dom), k: field(r.k), wm: field(r.wm), pt: field(r.pt), st: field(r.st), ks: field(r.ks) };
  }
  function field(x) { return x === undefined ? undefined : takeIn(x); }
  function answer(r) {
    slots = [];
    bytes = 0;
    if (r.t !== 'each') { at = -1; return invokeOne(r); }
    var rs = r.rs, each = [];
    for (var i = 0; i < rs.length; i++) { at = i; each.push(invokeOne(rs[i])); }
    at = -1;
    return { each: each };
  }
  function invokeOne(r) {
    lineAt[0] = 0;
    try {
      if (r.t === 'process') return processCall(r);
      if (r.t === 'broadcast') return broadcastCall(r);
      return methodCall(r);
    } catch (e) {
      return e === SHAPE ? { s: shapeMessage } : thrownAnswer(e);
    }
  }
`;
