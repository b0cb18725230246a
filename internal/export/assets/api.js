// Endpoint pages: the server selector and the "Try it" playground. What a
// reader types stays in this tab: auth values in sessionStorage (so the
// next endpoint page of the tab has them), the rest in the page. Requests
// leave only when Send is pressed, and only with fetch.
(function () {
  "use strict";
  function join(server, path) { return server.replace(/\/+$/, "") + path; }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function store(k, v) { try { sessionStorage.setItem("docs-playground:" + k, v); } catch (e) { /* storage disabled */ } }
  function recall(k) { try { return sessionStorage.getItem("docs-playground:" + k) || ""; } catch (e) { return ""; } }

  var urlCode = document.querySelector(".api-url code");
  var topSelect = document.querySelector(".api-server-select");
  if (topSelect && urlCode) topSelect.addEventListener("change", function () {
    urlCode.textContent = join(topSelect.value, urlCode.getAttribute("data-path"));
    if (server) server.value = topSelect.value;
  });

  var panel = document.querySelector(".playground");
  var cfgEl = panel && panel.querySelector(".playground-config");
  var server = null;
  if (!cfgEl) return;
  var cfg = JSON.parse(cfgEl.textContent);
  var form = el("form", { "class": "pg-form" });
  panel.appendChild(form);

  function row(labelText, input, required) {
    var l = el("label");
    var span = el("span", {}, labelText);
    if (required) span.appendChild(el("span", { "class": "req", title: "required" }, " *"));
    l.appendChild(span);
    l.appendChild(input);
    form.appendChild(l);
    return input;
  }

  // Air-gapped bundles send only to the spec's own servers: a fixed list.
  if (cfg.locked) {
    server = el("select", { "class": "pg-server" });
    cfg.servers.forEach(function (s) { server.appendChild(el("option", { value: s }, s)); });
  } else {
    server = el("input", { "class": "pg-server", type: "url", list: "pg-servers", placeholder: "https://api.example.com" });
    var dl = el("datalist", { id: "pg-servers" });
    cfg.servers.forEach(function (s) { dl.appendChild(el("option", { value: s })); });
    form.appendChild(dl);
    server.value = cfg.servers[0] || "";
  }
  row("Server", server, true);

  var auth = [];
  var seen = {};
  (cfg.security || []).forEach(function (set) {
    set.forEach(function (sc) {
      if (seen[sc.name]) return;
      seen[sc.name] = true;
      if (sc.type === "basic") {
        var u = row(sc.name + " username", el("input", { "class": "pg-auth", type: "text", autocomplete: "off" }));
        var p = row(sc.name + " password", el("input", { "class": "pg-auth", type: "password", autocomplete: "off" }));
        u.value = recall(sc.name + ":user");
        auth.push({ sc: sc, user: u, pass: p });
        return;
      }
      var label = sc.type === "apiKey" ? sc.param + " (" + sc["in"] + ")" : "Authorization (" + (sc.type === "bearer" ? "Bearer" : sc.type) + ")";
      var i = row(label, el("input", { "class": "pg-auth", "data-scheme": sc.name, type: "password", autocomplete: "off", placeholder: sc.type === "apiKey" ? "API key" : "token" }));
      i.value = recall(sc.name) || sc.prefill || "";
      auth.push({ sc: sc, input: i });
    });
  });

  var params = (cfg.params || []).map(function (p) {
    var input;
    if (p.enum && p.enum.length) {
      input = el("select", { "class": "pg-param" });
      if (!p.required) input.appendChild(el("option", { value: "" }, ""));
      p.enum.forEach(function (v) { input.appendChild(el("option", { value: v }, v)); });
    } else {
      input = el("input", { "class": "pg-param", type: "text", placeholder: p.type || "" });
    }
    input.setAttribute("data-name", p.name);
    input.setAttribute("data-in", p["in"]);
    if (p["default"]) input.value = p["default"];
    row(p.name + " (" + p["in"] + ")", input, p.required);
    return { p: p, input: input };
  });

  var body = null;
  if (cfg.media) {
    body = el("textarea", { "class": "pg-body", spellcheck: "false", "aria-label": "Request body (" + cfg.media + ")" });
    body.value = cfg.body || "";
    form.appendChild(el("p", { "class": "api-subtitle" }, "Body (" + cfg.media + ")" + (cfg.bodyRequired ? " *" : "")));
    form.appendChild(body);
  }

  var send = el("button", { "class": "send", type: "submit" }, "Send");
  form.appendChild(send);
  var result = el("div", { "class": "pg-result", "aria-live": "polite" });
  panel.appendChild(result);

  function fail(msg) {
    result.textContent = "";
    result.appendChild(el("p", { "class": "pg-error" }, msg));
  }

  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var base = server.value.trim();
    if (cfg.locked && cfg.servers.indexOf(base) < 0) return fail("This bundle sends requests only to the servers of its API description.");
    var path = cfg.path, query = new URLSearchParams(), headers = {}, missing = [];
    params.forEach(function (x) {
      var v = x.input.value;
      if (v === "") { if (x.p.required) missing.push(x.p.name); return; }
      if (x.p["in"] === "path") path = path.split("{" + x.p.name + "}").join(encodeURIComponent(v));
      else if (x.p["in"] === "query") query.append(x.p.name, v);
      else if (x.p["in"] === "header") headers[x.p.name] = v;
    });
    if (missing.length) return fail("Required: " + missing.join(", "));
    auth.forEach(function (a) {
      var sc = a.sc;
      if (a.user) {
        if (a.user.value || a.pass.value) headers.Authorization = "Basic " + btoa(a.user.value + ":" + a.pass.value);
        store(sc.name + ":user", a.user.value);
        return;
      }
      var v = a.input.value.trim();
      store(sc.name, v);
      if (!v) return;
      if (sc.type === "apiKey" && sc["in"] === "header") headers[sc.param] = v;
      else if (sc.type === "apiKey" && sc["in"] === "query") query.append(sc.param, v);
      else if (sc.type !== "apiKey") headers.Authorization = "Bearer " + v;
    });
    var init = { method: cfg.method, headers: headers, mode: "cors", credentials: "omit", cache: "no-store" };
    if (body && body.value.trim() !== "") {
      if (/json/.test(cfg.media)) {
        try { JSON.parse(body.value); } catch (e) { return fail("The body is not valid JSON: " + e.message); }
      }
      headers["Content-Type"] = cfg.media;
      init.body = body.value;
    }
    var url = join(base, path);
    var qs = query.toString();
    if (qs) url += "?" + qs;
    if (!/^https?:\/\//i.test(url)) return fail("The server URL must be absolute (http:// or https://): " + url);
    send.disabled = true;
    result.textContent = "Sending…";
    var t0 = performance.now();
    fetch(url, init).then(function (res) {
      return res.text().then(function (text) { show(res, text, performance.now() - t0); });
    }).catch(function (err) {
      fail("The request failed (" + err.message + "). From a page opened from a file or another site, the API must allow this origin with CORS.");
    }).then(function () { send.disabled = false; });
  });

  function show(res, text, ms) {
    result.textContent = "";
    var head = el("p", { "class": "pg-status-line" });
    head.appendChild(el("span", { "class": "status status-" + String(res.status).charAt(0) + "xx pg-status" }, String(res.status)));
    head.appendChild(document.createTextNode(" " + res.statusText + " · "));
    head.appendChild(el("span", { "class": "pg-time" }, Math.round(ms) + " ms"));
    result.appendChild(head);
    var hs = el("details", { "class": "pg-headers" });
    hs.appendChild(el("summary", {}, "Headers"));
    var lines = [];
    res.headers.forEach(function (v, k) { lines.push(k + ": " + v); });
    hs.appendChild(el("pre", {}, lines.join("\n")));
    result.appendChild(hs);
    var shown = text;
    try { shown = JSON.stringify(JSON.parse(text), null, 2); } catch (e) { /* not JSON: shown as is */ }
    result.appendChild(el("pre", { "class": "pg-body-out" }, shown));
  }
})();
