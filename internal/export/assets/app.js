// Behaviour of exported docs: theme, mobile menu, tabs, copy buttons and
// offline search. Everything works from file:// and never touches the
// network: the search index is a script next to this one.
(function () {
  "use strict";
  var doc = document.documentElement;
  var root = doc.getAttribute("data-root") || "";
  doc.classList.add("js");
  // Interface text in the page's language (data-ui, written for pages
  // not in English); English otherwise.
  var ui = {};
  try { ui = JSON.parse(doc.getAttribute("data-ui") || "{}"); } catch (e) { /* English */ }
  function t(key, en) { return ui[key] || en; }

  function prefersDark() {
    return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
  }
  // Without a mode from docs.json or the reader, the page follows the
  // system's, also when it changes while the page is open.
  var followSystem = doc.hasAttribute("data-system") || !doc.dataset.theme;
  if (followSystem) doc.dataset.theme = prefersDark() ? "dark" : "light";
  var toggle = document.querySelector(".theme-toggle");
  if (toggle) toggle.addEventListener("click", function () {
    var t = doc.dataset.theme === "dark" ? "light" : "dark";
    doc.dataset.theme = t;
    followSystem = false;
    try { localStorage.setItem("theme", t); } catch (e) { /* storage may be off on file:// */ }
  });
  if (followSystem && window.matchMedia) window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", function (ev) {
    if (followSystem) doc.dataset.theme = ev.matches ? "dark" : "light";
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
      b.textContent = panel.getAttribute("data-title") || t("tab", "Tab {n}").replace("{n}", i + 1);
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
      // A code block's code, or a prompt's text.
      var box = b.closest(".code-block, .prompt");
      var pre = box && box.querySelector(box.classList.contains("prompt") ? ".prompt-body" : "pre");
      if (pre && navigator.clipboard) navigator.clipboard.writeText(pre.innerText).then(function () {
        b.textContent = t("copied", "Copied");
        setTimeout(function () { b.textContent = t("copy", "Copy"); }, 1500);
      });
    });
  });

  // Search. The index loads on first use, so pages stay light. It is a
  // script, not a fetch, so it loads from file:// too. It holds the
  // pages' titles, headings and section texts and the list of their
  // words: a query's words are matched against that list (exactly, by
  // prefix or with a small typo), then the words found are looked for in
  // the text, title above heading above body, and each page is shown
  // once with its matching sections under it.
  var input = document.getElementById("search-input");
  var box = document.getElementById("search-results");
  if (!input || !box) return;
  var index = null, loading = null, firstInput = 0;
  var WEIGHT = [10, 5, 1]; // title, heading, body
  var wordRE = /[\p{L}\p{N}]+/gu, cjkRE = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]/;
  function words(s) { return s.toLowerCase().match(wordRE) || []; }
  function build(raw, vocab) {
    var t0 = performance.now();
    var pages = raw.map(function (p) {
      var x = (p.x || []).map(function (x) { return [x[0].toLowerCase(), x[2].toLowerCase()]; });
      var t = p.t.toLowerCase();
      return { p: p, t: t, x: x, all: t + "\n" + x.map(function (x) { return x[0] + "\n" + x[1]; }).join("\n") };
    });
    box.setAttribute("data-build-ms", (performance.now() - t0).toFixed(1));
    return { pages: pages, vocab: vocab ? vocab.split(" ") : [] };
  }
  function load(then) {
    if (index) return then();
    if (!loading) {
      loading = [];
      var s = document.createElement("script");
      s.src = root + "_static/search-index.js";
      s.onload = function () {
        index = build(window.__docsSearchIndex || [], window.__docsSearchWords || "");
        window.__docsSearchIndex = window.__docsSearchWords = null; // the built form replaces them
        loading.forEach(function (f) { f(); });
      };
      document.head.appendChild(s);
    }
    loading.push(then);
  }
  // within reports whether a and b are at most max edits apart
  // (insertions, deletions, substitutions), in O(len * max).
  function within(a, b, max) {
    if (Math.abs(a.length - b.length) > max) return false;
    var prev = [], cur = [], i, j;
    for (j = 0; j <= b.length; j++) prev[j] = j;
    for (i = 1; i <= a.length; i++) {
      cur = [i];
      var lo = i;
      for (j = 1; j <= b.length; j++) {
        cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        if (cur[j] < lo) lo = cur[j];
      }
      if (lo > max) return false;
      prev = cur;
    }
    return prev[b.length] <= max;
  }
  // quality of word w for query term t: 1 exact, less for a prefix, less
  // again for a typo (one edit from 4 letters, two from 8), 0 for none.
  function quality(t, w) {
    if (w === t) return 1;
    if (w.length > t.length && w.lastIndexOf(t, 0) === 0) return 0.6 + 0.3 * t.length / w.length;
    if (t.length >= 4) {
      var max = t.length >= 8 ? 2 : 1;
      if (within(t, w, max)) return max === 2 && !within(t, w, 1) ? 0.35 : 0.5;
    }
    return 0;
  }
  function reEsc(w) { return w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }
  // match scores one term on every page and section: the best quality
  // of a word it matches times the weight of the field it is in. Only
  // the pages in only are looked at, when it is given.
  function match(t, only) {
    var pages = new Map(), secs = new Map(), q = new Map(), cjk = cjkRE.test(t);
    if (cjk || t.length < 2) { // CJK has no spaces: match inside text; one letter: that word
      q.set(t, 1);
    } else {
      for (var w = 0; w < index.vocab.length; w++) {
        var v = quality(t, index.vocab[w]);
        if (v) q.set(index.vocab[w], v);
      }
    }
    var found = Array.from(q.keys());
    if (!found.length) return { pages: pages, secs: secs, found: found };
    found.sort(function (a, b) { return b.length - a.length; }); // longest first in the alternation
    var alt = found.map(reEsc).join("|");
    var re = cjk ? new RegExp("()(" + alt + ")", "g") : new RegExp("(^|[^\\p{L}\\p{N}])(" + alt + ")(?![\\p{L}\\p{N}])", "gu");
    // best is the best quality of a match in s, 0 for none.
    function best(s) {
      re.lastIndex = 0;
      var m, top = 0;
      while (top < 1 && (m = re.exec(s))) {
        var v = q.get(m[2]);
        if (v > top) top = v;
      }
      return top;
    }
    index.pages.forEach(function (e, i) {
      if (only && !only.has(i)) return;
      re.lastIndex = 0;
      if (!re.test(e.all)) return;
      var top = best(e.t) * WEIGHT[0];
      e.x.forEach(function (x, j) {
        var s = Math.max(best(x[0]) * WEIGHT[1], best(x[1]) * WEIGHT[2]);
        if (s > 0) secs.set(i * 1024 + j, s);
        if (s > top) top = s;
      });
      if (top > 0) pages.set(i, top);
    });
    return { pages: pages, secs: secs, found: found };
  }
  function search(q) {
    var terms = words(q);
    if (!terms.length) return [];
    // Every term must match: each looks only at the pages the one
    // before it matched.
    var per = [], only = null;
    for (var k = 0; k < terms.length && (!only || only.size); k++) {
      per.push(match(terms[k], only));
      only = per[k].pages;
    }
    var hits = [];
    if (per.length === terms.length) only.forEach(function (s, i) {
      var score = 0;
      per.forEach(function (m) { score += m.pages.get(i); });
      var e = index.pages[i];
      if (e.t === terms.join(" ")) score += 20; // the page is named so
      // Sections that hold every term, else each section that holds one.
      var secs = [], some = [];
      e.x.forEach(function (x, j) {
        var key = i * 1024 + j, ss = 0, all = true;
        per.forEach(function (m) { var v = m.secs.get(key); if (v === undefined) all = false; else ss += v; });
        if (ss > 0) (all ? secs : some).push({ j: j, score: ss });
      });
      if (!secs.length) secs = some;
      secs.sort(function (a, b) { return b.score - a.score || a.j - b.j; });
      hits.push({ e: e, score: score, secs: secs.slice(0, 3) });
    });
    hits.sort(function (a, b) { return b.score - a.score || a.e.t.length - b.e.t.length || (a.e.t < b.e.t ? -1 : 1); });
    var found = [];
    per.forEach(function (m) { found = found.concat(m.found); });
    return { hits: hits.slice(0, 10), found: found };
  }
  function esc(s) {
    return s.replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; });
  }
  // snippet shows text around the first word the query matched, marked.
  function snippet(text, found) {
    var low = text.toLowerCase(), at = -1, len = 0;
    found.forEach(function (w) {
      var re = new RegExp("(^|[^\\p{L}\\p{N}])" + w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "u");
      var m = cjkRE.test(w) ? { index: low.indexOf(w), 1: "" } : re.exec(low);
      if (m && m.index >= 0 && (at < 0 || m.index + m[1].length < at)) { at = m.index + m[1].length; len = w.length; }
    });
    if (at < 0) return esc(text.slice(0, 100)) + (text.length > 100 ? "…" : "");
    var from = Math.max(0, at - 40);
    return (from ? "…" : "") + esc(text.slice(from, at)) + "<mark>" + esc(text.slice(at, at + len)) + "</mark>" +
      esc(text.slice(at + len, at + len + 70)) + (at + len + 70 < text.length ? "…" : "");
  }
  function render(q) {
    var t0 = window.performance ? performance.now() : 0;
    var res = search(q), hits = res.hits || [];
    // The search time is kept on the box, where tests and benchmarks read it.
    if (t0) box.setAttribute("data-search-ms", (performance.now() - t0).toFixed(2));
    if (firstInput && t0) { box.setAttribute("data-first-ms", (performance.now() - firstInput).toFixed(1)); firstInput = 0; }
    if (!hits.length) {
      box.innerHTML = '<span class="r-empty">' + esc(t("noResults", "No results for “{q}”")).replace("{q}", function () { return esc(q); }) + "</span>";
    } else {
      box.innerHTML = hits.map(function (h) {
        // The page, then the sections that match, each to its anchor.
        var p = h.e.p, href = root + p.u, x0 = p.x && p.x[0] ? p.x[0] : ["", "", ""];
        // The lead's snippet when the lead matches or nothing else does;
        // a matching section shows its own below.
        var leadHit = h.secs.some(function (s) { return s.j === 0; });
        var snip = leadHit || !h.secs.length ? '<span class="r-snip">' + snippet(x0[2], res.found) + "</span>" : "";
        var html = '<div class="r-group" role="group"><a role="option" class="r-page" href="' + esc(href) +
          '"><span class="r-title">' + esc(p.t) + "</span>" + (p.s ? '<span class="r-sub">' + esc(p.s) + "</span>" : "") + snip + "</a>";
        h.secs.forEach(function (s) {
          var x = p.x[s.j];
          if (!x[0]) return;
          html += '<a role="option" class="r-section" href="' + esc(href + "#" + x[1]) + '"><span class="r-head">' + esc(x[0]) +
            '</span><span class="r-snip">' + snippet(x[2] || x[0], res.found) + "</span></a>";
        });
        return html + "</div>";
      }).join("");
    }
    box.setAttribute("data-q", q);
    box.hidden = false;
  }
  input.addEventListener("input", function () {
    var q = input.value.trim();
    if (!index && !firstInput && window.performance) firstInput = performance.now();
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
    if (window.performance) firstInput = performance.now();
    load(function () { render(input.value.trim()); });
  }
})();

// Copy page: the page's Markdown is embedded next to the button, so it
// copies from file:// too, where a script may not read other files.
(function () {
  "use strict";
  var btn = document.querySelector(".md-copy");
  var src = document.querySelector(".md-source");
  if (!btn || !src) return;
  var label = btn.textContent;
  function done() {
    btn.textContent = btn.getAttribute("data-copied") || label;
    btn.classList.add("copied");
    setTimeout(function () { btn.textContent = label; btn.classList.remove("copied"); }, 1500);
  }
  btn.addEventListener("click", function () {
    var text = src.value;
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, fallback);
    } else {
      fallback();
    }
    // Without the async clipboard (an http:// page), the selection of a
    // shown textarea is copied the old way.
    function fallback() {
      src.hidden = false;
      src.select();
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { /* not allowed */ }
      src.hidden = true;
      if (ok) done();
    }
  });
})();
