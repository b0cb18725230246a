// The server-side "React" that components of a docs source run against.
// It builds element trees and resolves them to plain host nodes (strings,
// HTML elements, platform components and the MDX children handed over by
// Go), which Go turns into HTML. Nothing here reaches outside the runtime:
// the host object gives module loading only.
(function (g, host) {
  "use strict";
  var ELEMENT = {};
  var FRAGMENT = { $$fragment: true };
  var MAX_NODES = 50000;
  var MAX_STRING = 1 << 20;
  var nodes = 0;
  var ids = 0;
  function noop() {}

  function h(type, config) {
    var props = {};
    var key = null;
    if (config != null) {
      for (var k in config) {
        if (k === "key") key = String(config[k]);
        else if (k !== "ref") props[k] = config[k];
      }
    }
    var n = arguments.length - 2;
    if (n === 1) props.children = arguments[2];
    else if (n > 1) {
      var c = new Array(n);
      for (var i = 0; i < n; i++) c[i] = arguments[i + 2];
      props.children = c;
    }
    if (type != null && typeof type === "function" && type.defaultProps) {
      for (var d in type.defaultProps) if (props[d] === undefined) props[d] = type.defaultProps[d];
    }
    return { $$el: ELEMENT, type: type, props: props, key: key };
  }

  function isElement(x) { return x != null && typeof x === "object" && x.$$el === ELEMENT; }

  function cloneElement(el, config) {
    var props = {};
    for (var k in el.props) props[k] = el.props[k];
    if (config != null) for (var c in config) if (c !== "key" && c !== "ref") props[c] = config[c];
    if (arguments.length === 3) props.children = arguments[2];
    else if (arguments.length > 3) props.children = Array.prototype.slice.call(arguments, 2);
    return { $$el: ELEMENT, type: el.type, props: props, key: el.key };
  }

  function flat(children, out) {
    if (children == null || typeof children === "boolean") return out;
    if (Array.isArray(children)) {
      for (var i = 0; i < children.length; i++) flat(children[i], out);
      return out;
    }
    out.push(children);
    return out;
  }

  var Children = {
    toArray: function (c) { return flat(c, []); },
    map: function (c, f, that) { return c == null ? c : flat(c, []).map(f, that); },
    forEach: function (c, f, that) { flat(c, []).forEach(f, that); },
    count: function (c) { return flat(c, []).length; },
    only: function (c) {
      if (!isElement(c)) throw new Error("React.Children.only expected one element");
      return c;
    },
  };

  function Component(props) { this.props = props; this.state = {}; }
  Component.prototype.isReactComponent = {};
  Component.prototype.setState = noop;
  Component.prototype.forceUpdate = noop;
  function PureComponent(props) { Component.call(this, props); }
  PureComponent.prototype = Object.create(Component.prototype);

  function createContext(value) {
    var ctx = { value: value };
    ctx.Provider = { $$provider: ctx };
    ctx.Consumer = { $$consumer: ctx };
    return ctx;
  }
  function passThrough(p) { return p.children; }

  var React = {
    createElement: h,
    cloneElement: cloneElement,
    isValidElement: isElement,
    Fragment: FRAGMENT,
    Children: Children,
    Component: Component,
    PureComponent: PureComponent,
    createContext: createContext,
    createRef: function () { return { current: null }; },
    memo: function (c) { return c; },
    forwardRef: function (f) { return function (p) { return f(p, null); }; },
    lazy: function () { throw new Error("React.lazy cannot load code in a static export"); },
    Suspense: passThrough,
    StrictMode: passThrough,
    // Hooks: a static page renders once, with the initial state, and
    // nothing that happens after the render (effects) runs.
    useState: function (init) { return [typeof init === "function" ? init() : init, noop]; },
    useReducer: function (r, arg, init) { return [init ? init(arg) : arg, noop]; },
    useEffect: noop,
    useLayoutEffect: noop,
    useInsertionEffect: noop,
    useImperativeHandle: noop,
    useDebugValue: noop,
    useMemo: function (f) { return f(); },
    useCallback: function (f) { return f; },
    useRef: function (init) { return { current: init }; },
    useContext: function (ctx) { return ctx.value; },
    useId: function () { return ":r" + (ids++).toString(32) + ":"; },
    useTransition: function () { return [false, function (f) { f(); }]; },
    useDeferredValue: function (v) { return v; },
    useSyncExternalStore: function (sub, get, getServer) { return (getServer || get)(); },
  };

  // The platform's own components, rendered by Go as in MDX.
  function builtin(name) { return { $$builtin: name }; }
  var builtins = host.builtins;
  for (var i = 0; i < builtins.length; i++) {
    var name = builtins[i];
    var dot = name.indexOf(".");
    if (dot < 0) {
      if (!g[name]) g[name] = builtin(name);
      else g[name].$$builtin = name;
    } else {
      var head = name.slice(0, dot);
      if (!g[head]) g[head] = builtin(head);
      g[head][name.slice(dot + 1)] = builtin(name);
    }
  }

  function describe(type) {
    if (type === undefined) return "undefined (an import or name that does not exist?)";
    if (type === null) return "null";
    return typeof type;
  }

  // resolve appends the host nodes of node to out: strings, {e, p, c}
  // HTML elements, {b, p, c} platform components and {r} MDX children.
  function resolve(node, out, depth) {
    if (node == null || typeof node === "boolean") return;
    if (++nodes > MAX_NODES) throw new Error("the component renders more than " + MAX_NODES + " nodes");
    var t = typeof node;
    if (t === "string") { out.push(node); return; }
    if (t === "number" || t === "bigint") { out.push(String(node)); return; }
    if (t === "function") return;
    if (Array.isArray(node)) {
      for (var i = 0; i < node.length; i++) resolve(node[i], out, depth);
      return;
    }
    if (t === "object" && typeof node.$$raw === "number") { out.push({ r: node.$$raw }); return; }
    if (!isElement(node)) throw new Error("an object is not valid as a child: " + Object.keys(node).join(", "));
    var type = node.type, props = node.props;
    if (type === FRAGMENT || type === passThrough) { resolve(props.children, out, depth); return; }
    if (typeof type === "string") {
      var c = [];
      resolve(props.children, c, depth);
      out.push({ e: type, p: hostProps(props), c: c });
      return;
    }
    if (type != null && typeof type === "object") {
      if (type.$$missing) throw new Error("unknown import " + type.$$missing);
      if (typeof type.$$builtin === "string") {
        var bc = [];
        resolve(props.children, bc, depth);
        out.push({ b: type.$$builtin, p: builtinProps(props, depth), c: bc });
        return;
      }
      if (type.$$provider) {
        var ctx = type.$$provider, prev = ctx.value;
        ctx.value = props.value;
        try { resolve(props.children, out, depth); } finally { ctx.value = prev; }
        return;
      }
      if (type.$$consumer) { resolve(props.children(type.$$consumer.value), out, depth); return; }
    }
    if (typeof type === "function") {
      if (type.prototype && type.prototype.isReactComponent) {
        var inst = new type(props);
        inst.props = props;
        resolve(inst.render(), out, depth + 1);
        return;
      }
      resolve(type(props), out, depth + 1);
      return;
    }
    throw new Error("element type is invalid: " + describe(type));
  }

  function hostProps(props) {
    var p = {};
    for (var k in props) {
      var v = props[k];
      if (k === "children" || typeof v === "function" || typeof v === "symbol") continue;
      if (isElement(v)) continue;
      p[k] = v;
    }
    return p;
  }

  // builtinProps are a platform component's props for Go: JSX given as
  // a prop's value (title={<span>Beta</span>}) goes as the host nodes it
  // resolves to, which Go renders into the component.
  function builtinProps(props, depth) {
    var p = hostProps(props);
    for (var k in props) {
      var v = props[k];
      if (k === "children" || !(isElement(v) || (Array.isArray(v) && v.some(isElement)))) continue;
      var nodes = [];
      resolve(v, nodes, depth);
      p[k] = { $$nodes: nodes };
    }
    return p;
  }

  // A module that is not in the docs source: any use of it fails the
  // component that uses it, not the page.
  function missing(spec) {
    return new Proxy({}, {
      get: function (t, k) {
        if (k === "__esModule") return false;
        if (k === "$$missing") return spec;
        throw new Error("unknown import " + spec);
      },
    });
  }

  var modules = {};
  function requireFrom(from) {
    return function (spec) {
      if (spec === "react" || spec === "react/jsx-runtime" || spec === "react/jsx-dev-runtime") return React;
      var file = host.resolve(from, spec);
      if (!file) return missing(spec);
      var m = modules[file];
      if (m) return m.exports;
      m = modules[file] = { exports: {} };
      var factory = host.load(file);
      try {
        factory(m, m.exports, requireFrom(file));
      } catch (e) {
        delete modules[file];
        throw e;
      }
      return m.exports;
    };
  }

  // Strings that a few calls would make huge are refused: memory is not
  // bounded by the time budget alone.
  function bounded(proto, name) {
    var f = proto[name];
    proto[name] = function (n) {
      // As the engine does: the count is any value, converted to a number.
      var count = Number(n);
      if ((name === "repeat" ? String(this).length * count : count) > MAX_STRING) {
        throw new RangeError(name + ": the result would be too large");
      }
      return f.apply(this, arguments);
    };
  }
  bounded(String.prototype, "repeat");
  bounded(String.prototype, "padStart");
  bounded(String.prototype, "padEnd");

  // The browser's globals a snippet may use while it renders (globals.go).
  g.btoa = function (s) { return host.btoa(String(s)); };
  g.atob = function (s) { return host.atob(String(s)); };
  function TextEncoder() {}
  TextEncoder.prototype.encoding = "utf-8";
  TextEncoder.prototype.encode = function (s) {
    return new Uint8Array(host.utf8Encode(s === undefined ? "" : String(s)));
  };
  TextEncoder.prototype.encodeInto = function (s, dest) {
    var b = this.encode(s), n = Math.min(b.length, dest.length);
    // Whole characters only: back off a cut UTF-8 sequence.
    while (n < b.length && n > 0 && (b[n] & 0xc0) === 0x80) n--;
    dest.set(b.subarray(0, n));
    return { read: host.utf8Decode(b.buffer.slice(0, n), false).length, written: n };
  };
  function TextDecoder(label, opts) {
    var l = label === undefined ? "utf-8" : String(label).toLowerCase().trim();
    if (l !== "utf-8" && l !== "utf8" && l !== "unicode-1-1-utf-8") {
      throw new RangeError("TextDecoder: only utf-8 is supported in a static render, not " + label);
    }
    this.encoding = "utf-8";
    this.fatal = !!(opts && opts.fatal);
  }
  TextDecoder.prototype.decode = function (b) {
    if (b === undefined) return "";
    var buf = b instanceof ArrayBuffer ? b : b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
    var s = host.utf8Decode(buf, this.fatal);
    return s.charCodeAt(0) === 0xfeff ? s.slice(1) : s;
  };
  g.TextEncoder = TextEncoder;
  g.TextDecoder = TextDecoder;
  ["URL", "URLSearchParams"].forEach(function (name) {
    Object.defineProperty(g, name, {
      configurable: true,
      get: function () {
        var v = host.url()[name];
        Object.defineProperty(g, name, { value: v, writable: true, configurable: true });
        return v;
      },
    });
  });
  // structuredClone: the values a render can hold (no functions, which
  // the browser refuses too), cycles kept.
  g.structuredClone = function (v) {
    var seen = new Map();
    function clone(x) {
      if (x === null || typeof x !== "object") {
        if (typeof x === "function" || typeof x === "symbol") throw new Error("DataCloneError: " + typeof x + " could not be cloned");
        return x;
      }
      if (seen.has(x)) return seen.get(x);
      var out;
      if (x instanceof Date) out = new Date(x.getTime());
      else if (x instanceof RegExp) out = new RegExp(x.source, x.flags);
      else if (x instanceof Map) { out = new Map(); seen.set(x, out); x.forEach(function (val, k) { out.set(clone(k), clone(val)); }); return out; }
      else if (x instanceof Set) { out = new Set(); seen.set(x, out); x.forEach(function (val) { out.add(clone(val)); }); return out; }
      else if (ArrayBuffer.isView(x)) out = x.slice();
      else if (x instanceof ArrayBuffer) out = x.slice(0);
      else if (Array.isArray(x)) { out = []; seen.set(x, out); for (var i = 0; i < x.length; i++) out[i] = clone(x[i]); return out; }
      else { out = {}; seen.set(x, out); Object.keys(x).forEach(function (k) { out[k] = clone(x[k]); }); return out; }
      seen.set(x, out);
      return out;
    }
    return clone(v);
  };

  g.React = React;
  g.__h = h;
  g.__Fragment = FRAGMENT;
  for (var hk in React) if (hk.indexOf("use") === 0) g[hk] = React[hk];

  // __render runs call i of scope and returns its host nodes as JSON;
  // raw is the index of its MDX children, or -1 for a self-closing tag.
  g.__render = function (scope, i, raw) {
    var exports = requireFrom("")(scope);
    var call = exports.__calls[i]();
    var el = raw < 0 ? h(call[0], call[1]) : h(call[0], call[1], { $$raw: raw });
    nodes = 0;
    var out = [];
    resolve(el, out, 0);
    return JSON.stringify(out);
  };
})(globalThis, __host);
