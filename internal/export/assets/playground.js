// The "Try it" playground of endpoint pages. What a reader types stays in
// this tab: auth values in sessionStorage (so the next endpoint page of
// the tab has them), the rest in the page. Requests leave only when Send
// is pressed, and only with fetch.
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

  // The page's server selector moves the panel's server along.
  var topSelect = document.querySelector(".api-server-select");
  if (topSelect) topSelect.addEventListener("change", function () {
    if (server) server.value = topSelect.value;
  });

  var panel = document.querySelector(".playground");
  var cfgEl = panel && panel.querySelector(".playground-config");
  var server = null;
  if (!cfgEl) return;
  var cfg = JSON.parse(cfgEl.textContent);
  // Interface text in the page's language (cfg.text, keyed as the
  // export's translation table), else the English given here; {name}
  // and the like stand for a value.
  var texts = cfg.text || {};
  function t(key, en, vals) {
    var s = texts[key] || en;
    Object.keys(vals || {}).forEach(function (k) { s = s.split("{" + k + "}").join(vals[k]); });
    return s;
  }
  var form = el("form", { "class": "pg-form" });
  panel.appendChild(form);

  // The panel is a dialog that a "Try it" button next to the method and
  // path opens, as on the hosted site; a link to #try-it opens it too.
  // Without script there is neither button nor panel: the page is the
  // reference alone.
  function openPanel() {
    if (panel.open) return;
    if (typeof panel.showModal === "function") panel.showModal();
    else panel.setAttribute("open", "");
    var first = form.querySelector("input:not([disabled]),select,textarea");
    if (first) first.focus();
  }
  var tryIt = el("button", { "class": "try-it", type: "button", "aria-haspopup": "dialog", "aria-controls": "try-it" }, t("apiTryIt", "Try it"));
  tryIt.addEventListener("click", openPanel);
  var bar = document.querySelector(".page .endpoint") || document.querySelector(".page-head");
  if (bar) bar.appendChild(tryIt);
  else panel.parentNode.insertBefore(tryIt, panel);
  document.addEventListener("click", function (ev) {
    var a = ev.target.closest && ev.target.closest('a[href="#try-it"]');
    if (a) { ev.preventDefault(); openPanel(); }
  });
  // The close button, Escape (the browser's) and a click on the backdrop
  // (outside the dialog's box) close it.
  var closer = panel.querySelector(".pg-close");
  if (closer) closer.addEventListener("click", function () { panel.close(); });
  panel.addEventListener("click", function (ev) {
    if (ev.target !== panel || !panel.open) return;
    var r = panel.getBoundingClientRect();
    if (ev.clientX < r.left || ev.clientX > r.right || ev.clientY < r.top || ev.clientY > r.bottom) panel.close();
  });

  function row(labelText, input, required) {
    var l = el("label");
    var span = el("span", {}, labelText);
    if (required) span.appendChild(el("span", { "class": "req", title: t("apiRequired", "required") }, " *"));
    l.appendChild(span);
    l.appendChild(input);
    form.appendChild(l);
    return input;
  }

  // A page cannot give fetch a Cookie header (browsers forbid it), so a
  // cookie input would be sent nowhere: it is shown disabled with why,
  // and the cURL example carries it with --cookie.
  var cookieNote = t("pgCookieNote", "A browser does not let a page set cookies on a request: send it with the cURL example (--cookie), or sign in to the API's site so the browser holds the cookie.");
  function cookieRow(label) {
    var i = row(label, el("input", { "class": "pg-cookie", type: "text", disabled: "", title: cookieNote }));
    form.appendChild(el("p", { "class": "pg-note" }, cookieNote));
    return i;
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
  row(t("apiServer", "Server"), server, true);

  // Header parameters that carry a credential (the same header name) are
  // not asked for twice: the credential's input feeds them.
  var shared = {};
  (cfg.shared || []).forEach(function (p) { shared[p.name.toLowerCase()] = p; });
  function sharedParam(sc) {
    if (sc.type === "apiKey") return sc["in"] === "header" ? shared[(sc.param || "").toLowerCase()] : null;
    return sc.type === "bearer" || sc.type === "basic" ? shared.authorization : null;
  }
  function sharedNote(p) {
    form.appendChild(el("p", { "class": "pg-note pg-shared" }, t("pgAlsoSent", "Also sent as the {name} header parameter.", { name: p.name })));
  }

  var auth = [];
  var seen = {};
  (cfg.security || []).forEach(function (set) {
    set.forEach(function (sc) {
      if (seen[sc.name]) return;
      seen[sc.name] = true;
      var sp = sharedParam(sc);
      if (sc.type === "basic") {
        var u = row(t("pgUsername", "{name} username", { name: sc.name }), el("input", { "class": "pg-auth", type: "text", autocomplete: "off" }), sp && sp.required);
        var p = row(t("pgPassword", "{name} password", { name: sc.name }), el("input", { "class": "pg-auth", type: "password", autocomplete: "off" }), sp && sp.required);
        u.value = recall(sc.name + ":user");
        if (sp) sharedNote(sp);
        auth.push({ sc: sc, user: u, pass: p, shared: sp });
        return;
      }
      var label = sc.type === "apiKey" ? sc.param + " (" + sc["in"] + ")" : "Authorization (" + (sc.type === "bearer" ? "Bearer" : sc.type) + ")";
      if (sc.type === "apiKey" && sc["in"] === "cookie") {
        cookieRow(label);
        return;
      }
      var i = row(label, el("input", { "class": "pg-auth", "data-scheme": sc.name, type: "password", autocomplete: "off", placeholder: sc.type === "apiKey" ? t("pgAPIKey", "API key") : t("pgToken", "token") }), sp && sp.required);
      i.value = recall(sc.name) || sc.prefill || (sp && sp["default"]) || "";
      if (sp) {
        i.setAttribute("data-name", sp.name);
        i.setAttribute("data-in", "header");
        sharedNote(sp);
      }
      auth.push({ sc: sc, input: i, shared: sp });
    });
  });

  var params = (cfg.params || []).filter(function (p) {
    if (p["in"] !== "cookie") return true;
    cookieRow(p.name + " (cookie)");
    return false;
  }).map(function (p) {
    var input;
    if (p.enum && p.enum.length) {
      input = el("select", { "class": "pg-param" });
      if (!p.required) input.appendChild(el("option", { value: "" }, ""));
      p.enum.forEach(function (v) { input.appendChild(el("option", { value: v }, v)); });
    } else {
      input = el("input", { "class": "pg-param", type: "text", placeholder: p.placeholder || p.type || "" });
    }
    input.setAttribute("data-name", p.name);
    input.setAttribute("data-in", p["in"]);
    if (p["default"]) input.value = p["default"];
    row(p.name + " (" + p["in"] + ")", input, p.required);
    return { p: p, input: input };
  });

  // The request body: a selector when the operation takes several content
  // types, then a text editor, or one input per property for a form.
  var bodies = cfg.bodies || [], body = null, bodyBox = el("div", { "class": "pg-body-box" });
  function showBody(i) {
    var b = bodies[i];
    bodyBox.textContent = "";
    body = { b: b, fields: [] };
    bodyBox.appendChild(el("p", { "class": "api-subtitle" }, t("apiBody", "Body") + " (" + b.media + ")" + (cfg.bodyRequired ? " *" : "")));
    if (!b.form) {
      body.text = el("textarea", { "class": "pg-body", spellcheck: "false", "aria-label": t("pgRequestBody", "Request body") + " (" + b.media + ")" });
      body.text.value = b.example || "";
      bodyBox.appendChild(body.text);
      return;
    }
    (b.fields || []).forEach(function (f) {
      var input;
      if (f.binary) {
        input = el("input", { "class": "pg-field", type: "file" });
        if (f.multiple) input.multiple = true;
      } else if (f["enum"] && f["enum"].length) {
        input = el("select", { "class": "pg-field" });
        if (!f.required) input.appendChild(el("option", { value: "" }, ""));
        f["enum"].forEach(function (v) { input.appendChild(el("option", { value: v }, v)); });
      } else {
        input = el("input", { "class": "pg-field", type: "text", placeholder: f.placeholder || f.type || "" });
      }
      input.setAttribute("data-name", f.name);
      if (f["default"] && !f.binary) input.value = f["default"];
      var l = el("label");
      var span = el("span", {}, f.name + (f.binary ? " (" + t("pgFile", "file") + ")" : ""));
      if (f.required) span.appendChild(el("span", { "class": "req", title: t("apiRequired", "required") }, " *"));
      l.appendChild(span);
      l.appendChild(input);
      bodyBox.appendChild(l);
      body.fields.push({ f: f, input: input });
    });
  }
  if (bodies.length > 1) {
    var pick = el("select", { "class": "pg-media", "aria-label": t("pgContentType", "Content type") });
    bodies.forEach(function (b, i) { pick.appendChild(el("option", { value: String(i) }, b.media)); });
    pick.addEventListener("change", function () { showBody(+pick.value); });
    row(t("pgContentType", "Content type"), pick);
  }
  if (bodies.length) {
    form.appendChild(bodyBox);
    showBody(0);
  }

  // base64 reads a file and encodes it, for fields the API takes as
  // base64 text rather than as a file part (base64url without padding).
  function base64(file, url) {
    return file.arrayBuffer().then(function (buf) {
      var bytes = new Uint8Array(buf), s = "";
      for (var i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
      var b = btoa(s);
      return url ? b.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "") : b;
    });
  }

  // formBody resolves to the FormData or URLSearchParams of a form body
  // (null when empty); the browser then writes the content type (with the
  // multipart boundary). Required fields left empty go to missing at once.
  function formBody(missing) {
    var out = body.b.form === "multipart" ? new FormData() : new URLSearchParams(), parts = [];
    body.fields.forEach(function (x) {
      if (x.f.binary) {
        var files = x.input.files || [];
        if (!files.length && x.f.required) missing.push(x.f.name);
        for (var k = 0; k < files.length; k++) {
          var file = files[k];
          if (x.f.base64) parts.push(base64(file, x.f.base64 === "base64url").then(function (v) { return [x.f.name, v]; }));
          else parts.push([x.f.name, file]);
        }
        return;
      }
      var v = x.input.value;
      if (v === "") { if (x.f.required) missing.push(x.f.name); return; }
      parts.push([x.f.name, v]);
    });
    return Promise.all(parts).then(function (done) {
      done.forEach(function (p) {
        if (typeof p[1] === "string") out.append(p[0], p[1]);
        else if (out instanceof FormData) out.append(p[0], p[1], p[1].name);
        else out.append(p[0], p[1].name);
      });
      return done.length ? out : null;
    });
  }

  var send = el("button", { "class": "send", type: "submit" }, t("pgSend", "Send"));
  form.appendChild(send);
  var result = el("div", { "class": "pg-result", "aria-live": "polite" });
  panel.appendChild(result);
  if (location.hash === "#try-it") openPanel();

  function fail(msg) {
    result.textContent = "";
    result.appendChild(el("p", { "class": "pg-error" }, msg));
  }

  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var base = server.value.trim();
    if (cfg.locked && cfg.servers.indexOf(base) < 0) return fail(t("pgLocked", "This bundle sends requests only to the servers of its API description."));
    var path = cfg.path, query = new URLSearchParams(), headers = {}, missing = [];
    params.forEach(function (x) {
      var v = x.input.value;
      if (v === "") { if (x.p.required) missing.push(x.p.name); return; }
      if (x.p["in"] === "path") path = path.split("{" + x.p.name + "}").join(encodeURIComponent(v));
      else if (x.p["in"] === "query") query.append(x.p.name, v);
      else if (x.p["in"] === "header") headers[x.p.name] = v;
    });
    // A credential that a required header parameter shares must be given
    // (basic: a user name or a password).
    auth.forEach(function (a) {
      if (!a.shared || !a.shared.required) return;
      var v = a.user ? a.user.value + a.pass.value : a.input.value.trim();
      if (v === "" && missing.indexOf(a.shared.name) < 0) missing.push(a.shared.name);
    });
    var payload = null;
    if (body && body.b.form) payload = formBody(missing);
    if (missing.length) return fail(t("pgMissing", "Required: {list}", { list: missing.join(", ") }));
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
      // A value that already names its scheme (pasted whole, or a
      // parameter's example) is sent as it is.
      else if (sc.type !== "apiKey") headers.Authorization = /^bearer\s/i.test(v) ? v : "Bearer " + v;
    });
    var init = { method: cfg.method, headers: headers, mode: "cors", credentials: "omit", cache: "no-store" };
    if (!payload && body && body.text && body.text.value.trim() !== "") {
      if (/json/.test(body.b.media)) {
        try { JSON.parse(body.text.value); } catch (e) { return fail(t("pgBadJSON", "The body is not valid JSON: {error}", { error: e.message })); }
      }
      headers["Content-Type"] = body.b.media;
      init.body = body.text.value;
    }
    var url = join(base, path);
    var qs = query.toString();
    if (qs) url += "?" + qs;
    if (!/^https?:\/\//i.test(url)) return fail(t("pgRelative", "The server URL must be absolute (http:// or https://): {url}", { url: url }));
    send.disabled = true;
    result.textContent = t("pgSending", "Sending…");
    var t0 = performance.now();
    (payload || Promise.resolve(null)).then(function (data) {
      if (data) init.body = data;
      t0 = performance.now();
      return fetch(url, init);
    }).then(function (res) {
      // Images, audio and video are shown as such, as on the platform.
      var media = /^(image|audio|video)\//.exec((res.headers.get("Content-Type") || "").toLowerCase());
      if (media) return res.blob().then(function (blob) { show(res, null, performance.now() - t0, media[1], blob); });
      return res.text().then(function (text) { show(res, text, performance.now() - t0); });
    }).catch(function (err) {
      fail(t("pgFailed", "The request failed ({error}). From a page opened from a file or another site, the API must allow this origin with CORS.", { error: err.message }));
    }).then(function () { send.disabled = false; });
  });

  function show(res, text, ms, media, blob) {
    result.textContent = "";
    var head = el("p", { "class": "pg-status-line" });
    head.appendChild(el("span", { "class": "status status-" + String(res.status).charAt(0) + "xx pg-status" }, String(res.status)));
    head.appendChild(document.createTextNode(" " + res.statusText + " · "));
    head.appendChild(el("span", { "class": "pg-time" }, Math.round(ms) + " ms"));
    result.appendChild(head);
    var hs = el("details", { "class": "pg-headers" });
    hs.appendChild(el("summary", {}, t("apiHeaders", "Headers")));
    var lines = [];
    res.headers.forEach(function (v, k) { lines.push(k + ": " + v); });
    hs.appendChild(el("pre", {}, lines.join("\n")));
    result.appendChild(hs);
    if (media) {
      var out = el(media === "image" ? "img" : media, { "class": "pg-media-out" });
      if (media === "image") out.alt = t("pgResponseImage", "Response image");
      else out.controls = true;
      out.src = URL.createObjectURL(blob);
      result.appendChild(out);
      return;
    }
    var shown = text;
    try { shown = JSON.stringify(JSON.parse(text), null, 2); } catch (e) { /* not JSON: shown as is */ }
    result.appendChild(el("pre", { "class": "pg-body-out" }, shown));
  }
})();
