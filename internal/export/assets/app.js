// Behaviour of exported docs: theme, mobile menu, tabs, copy buttons and
// offline search. Everything works from file:// and never touches the
// network: the search index is a script next to this one.
(function () {
  "use strict";
  var doc = document.documentElement;
  var root = doc.getAttribute("data-root") || "";
  doc.classList.add("js");

  function prefersDark() {
    return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
  }
  if (!doc.dataset.theme) doc.dataset.theme = prefersDark() ? "dark" : "light";
  var toggle = document.querySelector(".theme-toggle");
  if (toggle) toggle.addEventListener("click", function () {
    var t = doc.dataset.theme === "dark" ? "light" : "dark";
    doc.dataset.theme = t;
    try { localStorage.setItem("theme", t); } catch (e) { /* storage may be off on file:// */ }
  });

  // A parameter's link icon goes to the parameter, as any anchor does,
  // and copies its address for sharing, as the platform's does.
  document.addEventListener("click", function (ev) {
    var a = ev.target.closest && ev.target.closest(".field-anchor");
    if (!a || !navigator.clipboard) return;
    navigator.clipboard.writeText(location.href.split("#")[0] + a.getAttribute("href")).catch(function () { /* no clipboard: the link still works */ });
  });

  // A dismissed banner stays away until its text changes.
  var banner = document.querySelector(".banner");
  var bannerClose = banner && banner.querySelector(".banner-close");
  if (bannerClose) {
    var bannerText = banner.querySelector(".banner-body").textContent;
    try { if (localStorage.getItem("banner-dismissed") === bannerText) banner.hidden = true; } catch (e) { /* storage may be off */ }
    bannerClose.addEventListener("click", function () {
      banner.hidden = true;
      try { localStorage.setItem("banner-dismissed", bannerText); } catch (e) { /* storage may be off */ }
    });
  }

  var menu = document.querySelector(".menu-toggle");
  if (menu) menu.addEventListener("click", function () {
    var open = document.body.classList.toggle("nav-open");
    menu.setAttribute("aria-expanded", open ? "true" : "false");
  });

  // Tabs and code groups: all panels are in the HTML (readable without
  // script); here they become a tab strip.
  Array.prototype.forEach.call(document.querySelectorAll("[data-tabs]"), function (group, gi) {
    var panels = Array.prototype.filter.call(group.children, function (c) { return c.hasAttribute("data-title"); });
    if (panels.length < 2) return;
    var bar = document.createElement("div");
    bar.className = "tab-buttons";
    bar.setAttribute("role", "tablist");
    panels.forEach(function (panel, i) {
      var b = document.createElement("button");
      b.type = "button";
      b.setAttribute("role", "tab");
      b.id = "tab-" + gi + "-" + i;
      b.textContent = panel.getAttribute("data-title") || "Tab " + (i + 1);
      var icon = panel.querySelector(":scope > .tab-title > .i"); // a <Tab icon>
      if (icon) b.insertBefore(icon.cloneNode(true), b.firstChild);
      b.addEventListener("click", function () { select(i); });
      bar.appendChild(b);
      panel.setAttribute("role", "tabpanel");
      panel.setAttribute("aria-labelledby", b.id);
    });
    group.insertBefore(bar, group.firstChild);
    function select(n) {
      panels.forEach(function (p, i) { p.hidden = i !== n; bar.children[i].setAttribute("aria-selected", i === n ? "true" : "false"); });
    }
    select(0);
  });

  Array.prototype.forEach.call(document.querySelectorAll(".copy"), function (b) {
    b.addEventListener("click", function () {
      var pre = b.closest(".code-block").querySelector("pre");
      if (navigator.clipboard) navigator.clipboard.writeText(pre.innerText).then(function () {
        b.textContent = "Copied";
        setTimeout(function () { b.textContent = "Copy"; }, 1500);
      });
    });
  });

  // Search. The index loads on first use, so pages stay light.
  var input = document.getElementById("search-input");
  var box = document.getElementById("search-results");
  if (!input || !box) return;
  var index = null, loading = null;
  function load(then) {
    if (index) return then();
    if (!loading) {
      loading = [];
      var s = document.createElement("script");
      s.src = root + "_static/search-index.js";
      s.onload = function () {
        index = (window.__docsSearchIndex || []).map(function (p) {
          return { p: p, t: p.t.toLowerCase(), h: (p.h || []).map(function (h) { return h[0].toLowerCase(); }), b: p.b.toLowerCase() };
        });
        loading.forEach(function (f) { f(); });
      };
      document.head.appendChild(s);
    }
    loading.push(then);
  }
  function esc(s) {
    return s.replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; });
  }
  function search(q) {
    var terms = q.toLowerCase().split(/\s+/).filter(Boolean);
    if (!terms.length) return [];
    var hits = [];
    for (var i = 0; i < index.length; i++) {
      var e = index[i], score = 0, heading = -1, ok = true;
      for (var k = 0; k < terms.length && ok; k++) {
        var term = terms[k], s = 0;
        if (e.t.indexOf(term) >= 0) s += e.t === term ? 20 : 10;
        for (var h = 0; h < e.h.length; h++) {
          if (e.h[h].indexOf(term) >= 0) { s += 5; if (heading < 0) heading = h; break; }
        }
        if (e.b.indexOf(term) >= 0) s += 1;
        if (!s) ok = false;
        score += s;
      }
      if (ok) hits.push({ e: e, score: score, heading: heading });
    }
    hits.sort(function (a, b) { return b.score - a.score || (a.e.t < b.e.t ? -1 : 1); });
    return hits.slice(0, 12);
  }
  function snippet(e, term) {
    var at = e.b.indexOf(term);
    if (at < 0) return esc(e.p.b.slice(0, 100));
    var from = Math.max(0, at - 40);
    var raw = e.p.b.slice(from, at + term.length + 60);
    var rel = at - from;
    return (from ? "…" : "") + esc(raw.slice(0, rel)) + "<mark>" + esc(raw.slice(rel, rel + term.length)) + "</mark>" + esc(raw.slice(rel + term.length)) + "…";
  }
  function render(q) {
    var t0 = window.performance ? performance.now() : 0;
    var hits = search(q);
    // The search time is kept on the box, where tests and benchmarks read it.
    if (t0) box.setAttribute("data-search-ms", (performance.now() - t0).toFixed(2));
    var first = q.toLowerCase().split(/\s+/).filter(Boolean)[0] || "";
    if (!hits.length) {
      box.innerHTML = '<span class="r-empty">No results for “' + esc(q) + '”</span>';
    } else {
      box.innerHTML = hits.map(function (h) {
        var p = h.e.p, href = root + p.u, sub = p.s ? esc(p.s) : "";
        if (h.heading >= 0) { href += "#" + p.h[h.heading][1]; sub = esc(p.h[h.heading][0]); }
        return '<a role="option" href="' + esc(href) + '"><span class="r-title">' + esc(p.t) + "</span>" +
          (sub ? '<span class="r-sub">' + sub + "</span>" : "") + '<span class="r-sub">' + snippet(h.e, first) + "</span></a>";
      }).join("");
    }
    box.hidden = false;
  }
  input.addEventListener("input", function () {
    var q = input.value.trim();
    if (!q) { box.hidden = true; return; }
    load(function () { if (input.value.trim() === q) render(q); });
  });
  input.addEventListener("focus", function () { load(function () {}); });
  input.addEventListener("keydown", function (ev) {
    var links = box.querySelectorAll("a");
    if (!links.length) return;
    var cur = box.querySelector("a.active"), i = Array.prototype.indexOf.call(links, cur);
    if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
      ev.preventDefault();
      if (cur) cur.classList.remove("active");
      i = ev.key === "ArrowDown" ? Math.min(links.length - 1, i + 1) : Math.max(0, i - 1);
      links[i].classList.add("active");
    } else if (ev.key === "Enter") {
      (cur || links[0]).click();
    } else if (ev.key === "Escape") {
      box.hidden = true;
    }
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "/" && document.activeElement !== input) { ev.preventDefault(); input.focus(); }
  });
  document.addEventListener("click", function (ev) {
    if (!box.contains(ev.target) && ev.target !== input) box.hidden = true;
  });
  // A ?q= parameter opens the page with results shown, so searches can be
  // linked to and bookmarked.
  var m = /[?&]q=([^&]*)/.exec(location.search);
  if (m) {
    input.value = decodeURIComponent(m[1].replace(/\+/g, " "));
    load(function () { render(input.value.trim()); });
  }
})();
