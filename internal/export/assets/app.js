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
  // The root's class "dark" follows the mode too, for sites' custom CSS.
  function setTheme(t) {
    doc.dataset.theme = t;
    doc.classList.toggle("dark", t === "dark");
  }
  var followSystem = doc.hasAttribute("data-system") || !doc.dataset.theme;
  setTheme(followSystem ? (prefersDark() ? "dark" : "light") : doc.dataset.theme);
  var toggle = document.querySelector(".theme-toggle");
  if (toggle) toggle.addEventListener("click", function () {
    var t = doc.dataset.theme === "dark" ? "light" : "dark";
    setTheme(t);
    followSystem = false;
    try { localStorage.setItem("theme", t); } catch (e) { /* storage may be off on file:// */ }
  });
  if (followSystem && window.matchMedia) window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", function (ev) {
    if (followSystem) setTheme(ev.matches ? "dark" : "light");
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

  // Language, version and other switchers: a <details> list in the HTML
  // (usable without script) becomes a menu button and menu: arrows move
  // between the choices, Escape closes and returns to the button, and
  // the current choice is checked.
  var switches = Array.prototype.slice.call(document.querySelectorAll("details.switch"));
  switches.forEach(function (sw, si) {
    var sum = sw.querySelector("summary"), list = sw.querySelector("ul");
    if (!sum || !list) return;
    var items = Array.prototype.slice.call(list.querySelectorAll("a"));
    sum.id = sum.id || "switch-" + si;
    sum.setAttribute("role", "button");
    sum.setAttribute("aria-haspopup", "menu");
    sum.setAttribute("aria-expanded", "false");
    list.setAttribute("role", "menu");
    list.setAttribute("aria-labelledby", sum.id);
    items.forEach(function (a) {
      a.parentNode.setAttribute("role", "none");
      a.setAttribute("role", "menuitemradio");
      a.setAttribute("aria-checked", a.classList.contains("current") ? "true" : "false");
      a.tabIndex = -1;
    });
    function focusItem(i) { items[(i + items.length) % items.length].focus(); }
    // The state is said at once, not at the toggle event that follows
    // (a task later), so it is never read stale.
    function setOpen(open) {
      sw.open = open;
      sum.setAttribute("aria-expanded", open ? "true" : "false");
    }
    function shut(back) { setOpen(false); if (back) sum.focus(); }
    sw.addEventListener("toggle", function () {
      sum.setAttribute("aria-expanded", sw.open ? "true" : "false");
      if (sw.open) switches.forEach(function (o) { if (o !== sw) o.open = false; });
    });
    sum.addEventListener("keydown", function (ev) {
      if (ev.key !== "ArrowDown" && ev.key !== "ArrowUp" && ev.key !== "Enter" && ev.key !== " ") return;
      ev.preventDefault();
      setOpen(true);
      var cur = items.findIndex(function (a) { return a.getAttribute("aria-checked") === "true"; });
      focusItem(ev.key === "ArrowUp" ? items.length - 1 : Math.max(cur, 0));
    });
    list.addEventListener("keydown", function (ev) {
      var i = items.indexOf(document.activeElement);
      if (ev.key === "ArrowDown") { ev.preventDefault(); focusItem(i + 1); }
      else if (ev.key === "ArrowUp") { ev.preventDefault(); focusItem(i - 1); }
      else if (ev.key === "Home") { ev.preventDefault(); focusItem(0); }
      else if (ev.key === "End") { ev.preventDefault(); focusItem(items.length - 1); }
      else if (ev.key === "Escape") { ev.preventDefault(); shut(true); }
      else if (ev.key === "Tab") shut(false);
    });
  });
  document.addEventListener("click", function (ev) {
    switches.forEach(function (sw) { if (sw.open && !sw.contains(ev.target)) sw.open = false; });
  });

  // The tab bar scrolls sideways on a narrow screen: the current tab is
  // brought into view.
  var curTab = document.querySelector(".tabbar a.current");
  if (curTab) {
    var bar = curTab.closest(".tabbar"), tr = curTab.getBoundingClientRect(), br = bar.getBoundingClientRect();
    if (tr.right > br.right || tr.left < br.left) bar.scrollLeft += tr.left - br.left - 16;
  }

  // Tabs and code groups: all panels are in the HTML (readable without
  // script); here they become a tab strip, or a menu for a group with
  // data-dropdown. data-default names the panel shown first. Picking a
  // panel picks the one of the same title in the page's other groups,
  // except in groups that say data-sync="false".
  var groups = [];
  Array.prototype.forEach.call(document.querySelectorAll("[data-tabs]"), function (group, gi) {
    var panels = Array.prototype.filter.call(group.children, function (c) { return c.hasAttribute("data-title"); });
    if (panels.length < 2) return;
    var titles = panels.map(function (panel, i) {
      return panel.getAttribute("data-title") || t("tab", "Tab {n}").replace("{n}", i + 1);
    });
    var menu = group.hasAttribute("data-dropdown");
    var bar = document.createElement(menu ? "select" : "div");
    bar.className = menu ? "tab-select" : "tab-buttons";
    if (menu) {
      bar.setAttribute("aria-label", t("tabMenu", "Choose a version"));
      bar.addEventListener("change", function () { pick(bar.selectedIndex); });
    } else {
      bar.setAttribute("role", "tablist");
    }
    panels.forEach(function (panel, i) {
      var b = document.createElement(menu ? "option" : "button");
      b.textContent = titles[i];
      if (!menu) {
        b.type = "button";
        b.setAttribute("role", "tab");
        b.id = "tab-" + gi + "-" + i;
        var icon = panel.querySelector(":scope > .tab-title > .i"); // a <Tab icon>
        if (icon) b.insertBefore(icon.cloneNode(true), b.firstChild);
        b.addEventListener("click", function () { pick(i); });
        panel.setAttribute("role", "tabpanel");
        panel.setAttribute("aria-labelledby", b.id);
      }
      bar.appendChild(b);
    });
    group.insertBefore(bar, group.firstChild);
    var sync = group.getAttribute("data-sync") !== "false";
    function select(n) {
      panels.forEach(function (p, i) {
        p.hidden = i !== n;
        if (!menu) bar.children[i].setAttribute("aria-selected", i === n ? "true" : "false");
      });
      if (menu) bar.selectedIndex = n;
    }
    function pick(n) {
      select(n);
      if (sync) groups.forEach(function (g) {
        var j = g.titles.indexOf(titles[n]);
        if (g.sync && g.panels !== panels && j >= 0) g.select(j);
      });
    }
    groups.push({ panels: panels, titles: titles, select: select, sync: sync });
    var first = parseInt(group.getAttribute("data-default") || "0", 10);
    select(first > 0 && first < panels.length ? first : 0);
  });

  // Views (<View title>): all are in the HTML, one after another, for a
  // reader without script; here one shows at a time, chosen in a
  // dropdown at the top of the page that remembers the reader's choice,
  // and the contents list keeps only the headings of the shown view.
  (function () {
    var views = document.querySelectorAll(".view-panel[data-title]");
    var titles = [];
    Array.prototype.forEach.call(views, function (v) {
      if (titles.indexOf(v.getAttribute("data-title")) < 0) titles.push(v.getAttribute("data-title"));
    });
    if (!titles.length) return;
    var select = document.createElement("select");
    select.className = "view-select";
    select.setAttribute("aria-label", t("view", "View"));
    titles.forEach(function (title) {
      var o = document.createElement("option");
      o.value = o.textContent = title;
      select.appendChild(o);
    });
    try {
      var kept = localStorage.getItem("view");
      if (titles.indexOf(kept) >= 0) select.value = kept;
    } catch (e) { /* storage may be off on file:// */ }
    var head = document.querySelector(".page-head");
    if (head) head.appendChild(select); else views[0].parentNode.insertBefore(select, views[0]);
    function show() {
      Array.prototype.forEach.call(views, function (v) { v.hidden = v.getAttribute("data-title") !== select.value; });
      Array.prototype.forEach.call(document.querySelectorAll(".toc li"), function (li) {
        var a = li.querySelector("a[href^='#']");
        var target = a && document.getElementById(decodeURIComponent(a.getAttribute("href").slice(1)));
        li.hidden = !!(target && target.closest(".view-panel[hidden]"));
      });
    }
    select.addEventListener("change", function () {
      try { localStorage.setItem("view", select.value); } catch (e) { /* storage may be off */ }
      show();
    });
    show();
  })();

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

  // File trees are ARIA trees: one item is in the tab order, arrows move
  // between the items shown (Right opens a folder or enters it, Left
  // closes it or goes to its parent), Home and End go to the first and
  // last, Enter and Space open and close a folder, * opens the folders
  // beside the item, and typing jumps to an item that starts with what
  // was typed (components/tree.mdx).
  document.querySelectorAll("ul.tree").forEach(function (tree) {
    tree.setAttribute("role", "tree");
    var lis = [].slice.call(tree.querySelectorAll("li"));
    function rowOf(li) {
      return li.querySelector(":scope > details > summary") || li.querySelector(":scope > .tree-name") || li;
    }
    function detailsOf(li) { return li.querySelector(":scope > details"); }
    function sync(li) {
      var d = detailsOf(li);
      if (d) li.setAttribute("aria-expanded", d.open ? "true" : "false");
    }
    lis.forEach(function (li, i) {
      li.setAttribute("role", "treeitem");
      var group = li.querySelector(":scope > details > ul, :scope > ul");
      if (group) group.setAttribute("role", "group");
      var row = rowOf(li);
      row.tabIndex = i === 0 ? 0 : -1;
      var d = detailsOf(li);
      if (d) { sync(li); d.addEventListener("toggle", function () { sync(li); }); }
    });
    // Shown: no folder around the item is closed.
    function shown() {
      return lis.filter(function (li) {
        for (var el = li.parentElement; el && el !== tree; el = el.parentElement) {
          if (el.tagName === "DETAILS" && !el.open) return false;
        }
        return true;
      });
    }
    function go(li) {
      if (!li) return;
      lis.forEach(function (o) { rowOf(o).tabIndex = -1; });
      var row = rowOf(li);
      row.tabIndex = 0;
      row.focus();
    }
    var typed = "", typedAt = 0;
    tree.addEventListener("keydown", function (e) {
      var li = e.target.closest("li");
      if (!li || !tree.contains(li) || e.altKey || e.ctrlKey || e.metaKey) return;
      var list = shown(), k = list.indexOf(li), d = detailsOf(li);
      var parent = li.parentElement.closest("li");
      switch (e.key) {
        case "ArrowDown": go(list[k + 1]); break;
        case "ArrowUp": go(list[k - 1]); break;
        case "Home": go(list[0]); break;
        case "End": go(list[list.length - 1]); break;
        case "ArrowRight":
          if (d && !d.open) d.open = true;
          else if (d || li.querySelector(":scope > ul")) go(li.querySelector("li"));
          break;
        case "ArrowLeft":
          if (d && d.open) d.open = false;
          else if (parent && tree.contains(parent)) go(parent);
          break;
        case "Enter": case " ":
          if (!d) return;
          d.open = !d.open;
          break;
        case "*":
          [].forEach.call(li.parentElement.children, function (sib) { var sd = detailsOf(sib); if (sd) sd.open = true; });
          break;
        default:
          if (e.key.length !== 1 || e.key === " ") return;
          var now = Date.now();
          typed = (now - typedAt > 700 ? "" : typed) + e.key.toLowerCase();
          typedAt = now;
          // A first letter looks from the next item on; more letters
          // from this one, so typing on keeps a match.
          var start = typed.length > 1 ? k : k + 1;
          for (var n = 0; n < list.length; n++) {
            var cand = list[(start + n) % list.length];
            if (rowOf(cand).textContent.trim().toLowerCase().indexOf(typed) === 0) { go(cand); break; }
          }
      }
      e.preventDefault();
      lis.forEach(sync); // now, not at the toggle events that follow
    });
  });

  // A changelog whose updates have tags gets tag filters in place of its
  // contents list: with tags chosen, only the updates that have every
  // one of them show. The choice is in the address (?tags=A,B), read on
  // load and kept in step, so a filtered view can be linked to.
  (function () {
    var updates = [].slice.call(document.querySelectorAll(".update[data-tags]"));
    var toc = document.querySelector("aside.toc");
    if (!updates.length || !toc) return;
    var tagsOf = new Map(), all = [];
    document.querySelectorAll(".update").forEach(function (u) {
      var tags = [];
      try { tags = JSON.parse(u.getAttribute("data-tags") || "[]"); } catch (e) { /* none */ }
      tagsOf.set(u, tags);
      tags.forEach(function (tag) { if (all.indexOf(tag) < 0) all.push(tag); });
    });
    var chosen = [];
    var params = new URLSearchParams(location.search);
    (params.get("tags") || "").split(",").forEach(function (tag) {
      tag = tag.trim();
      if (tag && all.indexOf(tag) >= 0 && chosen.indexOf(tag) < 0) chosen.push(tag);
    });
    var box = document.createElement("div");
    box.className = "toc-filters";
    box.setAttribute("role", "group");
    var title = document.createElement("p");
    title.className = "toc-title";
    title.id = "toc-filters-title";
    title.textContent = t("filterByTag", "Filter by tag");
    box.setAttribute("aria-labelledby", title.id);
    box.appendChild(title);
    function apply() {
      tagsOf.forEach(function (tags, u) {
        u.hidden = chosen.length > 0 && !chosen.every(function (tag) { return tags.indexOf(tag) >= 0; });
      });
      var q = new URLSearchParams(location.search);
      if (chosen.length) q.set("tags", chosen.join(",")); else q.delete("tags");
      var search = q.toString();
      try { history.replaceState(history.state, "", location.pathname + (search ? "?" + search : "") + location.hash); } catch (e) { /* file:// in some browsers */ }
    }
    all.forEach(function (tag) {
      var label = document.createElement("label");
      label.className = "toc-filter";
      var box1 = document.createElement("input");
      box1.type = "checkbox";
      box1.value = tag;
      box1.checked = chosen.indexOf(tag) >= 0;
      box1.addEventListener("change", function () {
        chosen = all.filter(function (x) { return x === tag ? box1.checked : chosen.indexOf(x) >= 0; });
        apply();
      });
      label.appendChild(box1);
      label.appendChild(document.createTextNode(" " + tag));
      box.appendChild(label);
    });
    toc.textContent = "";
    toc.appendChild(box);
    toc.classList.add("toc-with-filters");
    apply();
  })();

  // An address naming something inside a closed accordion, expandable,
  // folder or tab panel opens it.
  function reveal() {
    var id = "";
    try { id = decodeURIComponent(location.hash.slice(1)); } catch (e) { return; }
    for (var el = id && document.getElementById(id); el; el = el.parentElement) {
      if (el.tagName === "DETAILS") el.open = true;
      var target = el;
      if (el.hidden) groups.forEach(function (g) { var k = g.panels.indexOf(target); if (k >= 0) g.select(k); });
    }
  }
  reveal();
  window.addEventListener("hashchange", reveal);

  // Search. The engine (search.js) and its index load on first use, so
  // pages stay light; both are scripts, not fetches, so they load from
  // file:// too. A query loads only the index shards its words need
  // (machines/searchindex.go); each page is shown once, with its
  // matching sections under it, each linking to its heading.
  var input = document.getElementById("search-input");
  var box = document.getElementById("search-results");
  if (!input || !box) return;
  var engine = null, waiting = null, firstInput = 0;
  function load(then) {
    if (engine) return then();
    if (!waiting) {
      waiting = [];
      // The index's manifest loads beside the engine, not after it.
      var m = document.createElement("script");
      m.setAttribute("data-search", "manifest");
      m.src = root + "_static/search-index.js";
      m.onload = m.onerror = function () { m.setAttribute("data-done", "1"); };
      document.head.appendChild(m);
      var s = document.createElement("script");
      s.src = root + "_static/search.js";
      s.onload = function () {
        engine = window.__docsSearchEngine.open(root);
        engine.ready(function () { waiting.forEach(function (f) { f(); }); });
      };
      document.head.appendChild(s);
    }
    waiting.push(then);
  }
  function esc(s) {
    return s.replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; });
  }
  function snippet(text, mark) {
    var s = window.__docsSearchEngine.snippet(text, mark);
    return esc(s[0]) + (s[1] ? "<mark>" + esc(s[1]) + "</mark>" : "") + esc(s[2]);
  }
  function render(q, hits, mark, t0) {
    // The times are kept on the box, where tests and benchmarks read them.
    box.setAttribute("data-search-ms", (performance.now() - t0).toFixed(2));
    if (firstInput) { box.setAttribute("data-first-ms", (performance.now() - firstInput).toFixed(1)); firstInput = 0; }
    if (!hits.length) {
      box.innerHTML = '<span class="r-empty">' + esc(t("noResults", "No results for “{q}”")).replace("{q}", function () { return esc(q); }) + "</span>";
    } else {
      box.innerHTML = hits.map(function (h) {
        // The page, then the sections that match, each to its anchor.
        var href = root + h.url, lead = h.parts[0] || ["", "", ""];
        // The lead's snippet when the lead matches or nothing else does;
        // a matching section shows its own below.
        var leadHit = h.secs.some(function (s) { return s.j === 0; });
        var snip = leadHit || !h.secs.length ? '<span class="r-snip">' + snippet(lead[2], mark) + "</span>" : "";
        var html = '<div class="r-group" role="group"><a role="option" class="r-page" href="' + esc(href) +
          '"><span class="r-title">' + esc(h.title) + "</span>" + (h.section ? '<span class="r-sub">' + esc(h.section) + "</span>" : "") + snip + "</a>";
        h.secs.forEach(function (s) {
          var x = h.parts[s.j];
          if (!x || !x[0]) return;
          html += '<a role="option" class="r-section" href="' + esc(href + "#" + x[1]) + '"><span class="r-head">' + esc(x[0]) +
            '</span><span class="r-snip">' + snippet(x[2] || x[0], mark) + "</span></a>";
        });
        return html + "</div>";
      }).join("");
    }
    box.setAttribute("data-q", q);
    box.hidden = false;
  }
  function run(q) {
    load(function () {
      if (input.value.trim() !== q) return; // the reader typed on
      var t0 = performance.now();
      engine.search(q, function (hits, mark) { if (input.value.trim() === q) render(q, hits, mark, t0); });
    });
  }
  input.addEventListener("input", function () {
    var q = input.value.trim();
    if (!engine && !firstInput) firstInput = performance.now();
    if (!q) { box.hidden = true; return; }
    run(q);
  });
  input.addEventListener("focus", function () { load(function () {}); });
  // On a phone the box hides behind a button and opens over the top bar.
  var opener = document.querySelector(".search-toggle"), closer = document.querySelector(".search-close");
  function openSearch() {
    document.body.classList.add("search-open");
    if (opener) opener.setAttribute("aria-expanded", "true");
    input.focus();
  }
  function closeSearch() {
    if (!document.body.classList.contains("search-open")) return;
    document.body.classList.remove("search-open");
    box.hidden = true;
    if (opener) { opener.setAttribute("aria-expanded", "false"); opener.focus(); }
  }
  // openOrFocus opens the box where it hides behind its button.
  function openOrFocus() {
    if (opener && getComputedStyle(opener).display !== "none") openSearch(); else input.focus();
  }
  if (opener) opener.addEventListener("click", openSearch);
  if (closer) closer.addEventListener("click", closeSearch);
  input.addEventListener("keydown", function (ev) {
    if (ev.key === "Escape") {
      box.hidden = true;
      closeSearch();
      return;
    }
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
    }
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "/" && document.activeElement !== input) { ev.preventDefault(); openOrFocus(); }
  });
  document.addEventListener("click", function (ev) {
    if (!box.contains(ev.target) && ev.target !== input) box.hidden = true;
  });
  // A ?q= parameter opens the page with results shown, so searches can be
  // linked to and bookmarked.
  var m = /[?&]q=([^&]*)/.exec(location.search);
  if (m) {
    input.value = decodeURIComponent(m[1].replace(/\+/g, " "));
    firstInput = performance.now();
    if (opener && getComputedStyle(opener).display !== "none") document.body.classList.add("search-open");
    run(input.value.trim());
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
