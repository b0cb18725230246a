// Offline search of exported docs, loaded by app.js when a reader first
// uses the search box. It reads the index the export wrote as scripts
// (machines/searchindex.go), which load from file:// as well as from a
// server, and never touches the network: the manifest (titles and the
// vocabulary) first, then only the term shards a query's words need and
// the text shards of the pages it shows.
//
// Words are cut and stemmed exactly as the index did (machines/stem.go);
// TestStem_jsAgreesWithGo runs this file's stemmer against the Go one.
(function (g) {
  "use strict";

  // Porter2, the Snowball English stemmer, written from the published
  // description of the algorithm (snowballstem.org/algorithms/english).
  var EXCEPTIONS = {
    skis: "ski", skies: "sky", dying: "die", lying: "lie", tying: "tie", idly: "idl", gently: "gentl",
    ugly: "ugli", early: "earli", only: "onli", singly: "singl",
    sky: "sky", news: "news", howe: "howe", atlas: "atlas", cosmos: "cosmos", bias: "bias", andes: "andes"
  };
  var AFTER_1A = { inning: 1, outing: 1, canning: 1, herring: 1, earring: 1, proceed: 1, exceed: 1, succeed: 1 };
  var STEP2 = {
    tional: "tion", enci: "ence", anci: "ance", abli: "able", entli: "ent", izer: "ize", ization: "ize",
    ational: "ate", ation: "ate", ator: "ate", alism: "al", aliti: "al", alli: "al", fulness: "ful",
    ousli: "ous", ousness: "ous", iveness: "ive", iviti: "ive", biliti: "ble", bli: "ble", ogi: "og",
    fulli: "ful", lessli: "less", li: ""
  };
  var STEP3 = { tional: "tion", ational: "ate", alize: "al", icate: "ic", iciti: "ic", ical: "ic", ful: "", ness: "", ative: "" };
  var STEP4 = ["al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ism", "ate", "iti", "ous", "ive", "ize", "ion"];
  function vowel(c) { return c === "a" || c === "e" || c === "i" || c === "o" || c === "u" || c === "y"; }
  function ends(w, s) { return w.length >= s.length && w.slice(w.length - s.length) === s; }
  // longest is the longest of suffixes that w ends with, or "".
  function longest(w, suffixes) {
    var best = "";
    for (var i = 0; i < suffixes.length; i++) if (suffixes[i].length > best.length && ends(w, suffixes[i])) best = suffixes[i];
    return best;
  }
  // region is where the region after the first non-vowel that follows a
  // vowel at or after from starts (R1 from 0, R2 from R1).
  function region(w, from) {
    for (var i = from + 1; i < w.length; i++) if (!vowel(w[i]) && vowel(w[i - 1])) return i + 1;
    return w.length;
  }
  // shortSyllable reports whether w's first end letters end in a short
  // syllable.
  function shortSyllable(w, end) {
    if (end >= 3 && !vowel(w[end - 1]) && "wxY".indexOf(w[end - 1]) < 0 && vowel(w[end - 2]) && !vowel(w[end - 3])) return true;
    return end === 2 && vowel(w[0]) && !vowel(w[1]);
  }
  var STEP2_KEYS = Object.keys(STEP2), STEP3_KEYS = Object.keys(STEP3);
  // stem returns the stem of the lower-case word w; only words of ASCII
  // letters are stemmed, as machines.Stem does.
  function stem(w) {
    if (w.length < 3 || /[^a-z]/.test(w)) return w;
    if (Object.prototype.hasOwnProperty.call(EXCEPTIONS, w)) return EXCEPTIONS[w];
    if (w[0] === "y") w = "Y" + w.slice(1);
    for (var i = 1; i < w.length; i++) if (w[i] === "y" && vowel(w[i - 1])) w = w.slice(0, i) + "Y" + w.slice(i + 1);
    var special = /^(gener|commun|arsen)/.exec(w), p1 = special ? special[0].length : region(w, 0), p2 = region(w, p1);
    var s = longest(w, ["sses", "ied", "ies", "s", "us", "ss"]), pre;
    if (s === "sses") w = w.slice(0, -2);
    else if (s === "ied" || s === "ies") w = w.slice(0, -3) + (w.length > 4 ? "i" : "ie");
    else if (s === "s" && /[aeiouy]/.test(w.slice(0, -2))) w = w.slice(0, -1);
    if (AFTER_1A[w]) return w.replace(/Y/g, "y");
    s = longest(w, ["eed", "eedly", "ed", "edly", "ing", "ingly"]);
    if (s === "eed" || s === "eedly") {
      if (w.length - s.length >= p1) w = w.slice(0, -s.length) + "ee";
    } else if (s && /[aeiouy]/.test(pre = w.slice(0, -s.length))) {
      w = pre;
      if (ends(w, "at") || ends(w, "bl") || ends(w, "iz")) w += "e";
      else if (/(bb|dd|ff|gg|mm|nn|pp|rr|tt)$/.test(w)) w = w.slice(0, -1);
      else if (w.length === p1 && shortSyllable(w, w.length)) w += "e";
    }
    if (w.length > 2 && (ends(w, "y") || ends(w, "Y")) && !vowel(w[w.length - 2])) w = w.slice(0, -1) + "i";
    s = longest(w, STEP2_KEYS);
    if (s && w.length - s.length >= p1) {
      pre = w.slice(0, -s.length);
      if (s === "ogi") { if (ends(pre, "l")) w = pre + "og"; }
      else if (s === "li") { if (pre && "cdeghkmnrt".indexOf(pre[pre.length - 1]) >= 0) w = pre; }
      else w = pre + STEP2[s];
    }
    s = longest(w, STEP3_KEYS);
    if (s && w.length - s.length >= p1 && (s !== "ative" || w.length - s.length >= p2)) w = w.slice(0, -s.length) + STEP3[s];
    s = longest(w, STEP4);
    if (s && w.length - s.length >= p2 && (s !== "ion" || /[st]ion$/.test(w))) w = w.slice(0, -s.length);
    var at = w.length - 1;
    if (ends(w, "e")) {
      if (at >= p2 || at >= p1 && !shortSyllable(w, at)) w = w.slice(0, -1);
    } else if (ends(w, "l") && at >= p2 && w[at - 1] === "l") {
      w = w.slice(0, -1);
    }
    return w.replace(/Y/g, "y");
  }

  // Words as the index cuts them (machines.searchTerms).
  var wordRE = /[\p{L}\p{N}]+/gu, cjkRE = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]/;
  function words(s) { return s.toLowerCase().match(wordRE) || []; }
  // pieces is w as index terms: a CJK run's character pairs, else w.
  function pieces(w) {
    if (!cjkRE.test(w)) return [w];
    var rs = Array.from(w), out = [];
    if (rs.length === 1) return rs;
    for (var i = 0; i + 1 < rs.length; i++) out.push(rs[i] + rs[i + 1]);
    return out;
  }
  // shardKey names the term shard of t (machines.shardKey).
  function shardKey(t) {
    var a = /^[a-z0-9]{1,2}/.exec(t);
    return a ? a[0] : "u" + (t.codePointAt(0) % 64);
  }
  // oneTypo reports whether a and b differ by one letter changed, added,
  // dropped or swapped with its neighbour.
  function oneTypo(a, b) {
    var la = a.length, lb = b.length, i = 0;
    if (Math.abs(la - lb) > 1) return false;
    while (i < la && i < lb && a[i] === b[i]) i++;
    if (la === lb) {
      if (i === la) return false;
      return a.slice(i + 1) === b.slice(i + 1) || a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
    }
    return la > lb ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
  }

  // twoEdits reports whether a and b are at most two edits apart
  // (letters changed, added or dropped), in O(length).
  function twoEdits(a, b) {
    if (Math.abs(a.length - b.length) > 2) return false;
    var prev = [], cur, i, j;
    for (j = 0; j <= b.length; j++) prev[j] = j;
    for (i = 1; i <= a.length; i++) {
      cur = [i];
      var lo = i;
      for (j = 1; j <= b.length; j++) {
        cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        if (cur[j] < lo) lo = cur[j];
      }
      if (lo > 2) return false;
      prev = cur;
    }
    return prev[b.length] <= 2;
  }

  var WEIGHT = [10, 5, 1]; // title, heading, body
  var SHOWN = 10;

  // open returns the search over the index under root.
  function open(root) {
    var reg = g.__docsSearchShards = g.__docsSearchShards || {}, waiting = {}, manifest = null, byLen = [];
    // need loads the scripts named (once each) and then calls then; a
    // missing one counts as empty.
    function need(names, then) {
      var left = 1;
      function one() { if (!--left) then(); }
      names.forEach(function (n) {
        if (n in reg) return;
        left++;
        if (waiting[n]) { waiting[n].push(one); return; }
        waiting[n] = [one];
        // app.js may have started loading the manifest already.
        var s = document.querySelector('script[data-search="' + n + '"]'), fresh = !s;
        if (fresh) {
          s = document.createElement("script");
          s.setAttribute("data-search", n);
          s.src = root + (n === "manifest" ? "_static/search-index.js" : "_static/search/" + n + ".js");
        }
        function done() {
          if (!(n in reg)) reg[n] = null;
          var w = waiting[n];
          delete waiting[n];
          if (w) w.forEach(function (f) { f(); });
        }
        s.addEventListener("load", done);
        s.addEventListener("error", done);
        if (fresh) document.head.appendChild(s);
        else if (s.getAttribute("data-done")) done();
      });
      one();
    }
    function ready(then) {
      if (manifest) return then();
      need(["manifest"], function () {
        if (!manifest) {
          manifest = reg.manifest || { pages: [], words: "", docs: 16 };
          manifest.vocab = manifest.words ? manifest.words.split(" ") : [];
          manifest.shardSet = new Set(manifest.shards || []);
          manifest.vocab.forEach(function (w) { (byLen[w.length] = byLen[w.length] || []).push(w); });
        }
        then();
      });
    }
    // candidates are the index terms query word q may mean, each with
    // how well (1 exact, less for a stem, a prefix or a typo), and the
    // words of the vocabulary it matched, which snippets mark.
    function candidates(q) {
      var keys = new Map(), marks = new Set(), vocab = manifest.vocab;
      function put(k, v) { if (!(keys.get(k) >= v)) keys.set(k, v); }
      function word(w, v) { marks.add(w); put(w, v); put(stem(w), v); }
      if (cjkRE.test(q) && Array.from(q).length > 1) {
        pieces(q).forEach(function (p) { put(p, 1); marks.add(p); });
        return { keys: keys, marks: marks };
      }
      // The words starting with q follow it in the sorted vocabulary.
      var lo = 0, hi = vocab.length;
      while (lo < hi) { var mid = (lo + hi) >> 1; if (vocab[mid] < q) lo = mid + 1; else hi = mid; }
      for (var i = lo; i < vocab.length && vocab[i].lastIndexOf(q, 0) === 0; i++) {
        if (vocab[i] === q) word(q, 1);
        else if (q.length >= 2 || cjkRE.test(q)) word(vocab[i], 0.6 + 0.3 * q.length / vocab[i].length);
      }
      put(stem(q), 0.9);
      // One typo from five letters, two from eight; not in the first
      // letter, which readers rarely get wrong: a typo then needs the
      // shards of one letter only, not of the whole alphabet.
      var edits = q.length >= 8 ? 2 : q.length >= 5 ? 1 : 0;
      for (var l = q.length - edits; edits && l <= q.length + edits; l++) {
        (byLen[l] || []).forEach(function (w) {
          if (w[0] !== q[0]) return;
          if (oneTypo(q, w)) word(w, 0.5); else if (edits === 2 && twoEdits(q, w)) word(w, 0.35);
        });
      }
      return { keys: keys, marks: marks };
    }
    // oneHeading reports whether one heading of page p holds every query
    // word (per has each word's places).
    function oneHeading(per, p) {
      var first = per[0].heads.get(p), found = false;
      if (first) first.forEach(function (j) {
        if (!found && per.every(function (m) { var hs = m.heads.get(p); return hs && hs.has(j); })) found = true;
      });
      return found;
    }
    // score ranks the pages that hold every query word, from the term
    // shards alone.
    function score(qs, titleWords) {
      var per = qs.map(function (c) {
        var pages = new Map(), secs = new Map(), heads = new Map(); // page -> score; page -> section -> score; page -> headings hit
        c.keys.forEach(function (v, k) {
          var list = reg["t-" + shardKey(k)], post = list && list[k];
          if (!post) return;
          for (var i = 0, p = 0; i < post.length; i += 2) {
            p += post[i];
            var place = post[i + 1], field = place % 3, s = v * WEIGHT[field];
            if (!(pages.get(p) >= s)) pages.set(p, s);
            if (!field) continue;
            var ps = secs.get(p), j = (place - field) / 3;
            if (!ps) secs.set(p, ps = new Map());
            if (!(ps.get(j) >= s)) ps.set(j, s);
            if (field === 1) { var hs = heads.get(p); if (!hs) heads.set(p, hs = new Set()); hs.add(j); }
          }
        });
        return { pages: pages, secs: secs, heads: heads };
      });
      var hits = [];
      per[0].pages.forEach(function (s0, p) {
        var total = 0;
        for (var k = 0; k < per.length; k++) {
          var s = per[k].pages.get(p);
          if (s === undefined) return;
          total += s;
        }
        var tw = titleWords(p);
        if (tw.length === qs.length && tw.every(function (w, k) { return qs[k].marks.has(w) || qs[k].keys.has(stem(w)); })) total += 20; // the page is named so
        else if (qs.length > 1 && oneHeading(per, p)) total += 12; // a heading of the page has every word
        hits.push({ n: p, score: total, tlen: manifest.pages[p][0].length });
      });
      hits.sort(function (a, b) { return b.score - a.score || a.tlen - b.tlen || a.n - b.n; });
      hits = hits.slice(0, SHOWN);
      // Each page's sections that hold every query word, else those
      // that hold one, best first: the links under the page.
      hits.forEach(function (h) {
        var all = [], some = [], seen = new Map();
        per.forEach(function (m) {
          var ps = m.secs.get(h.n);
          if (ps) ps.forEach(function (v, j) { var e = seen.get(j) || { j: j, score: 0, n: 0 }; e.score += v; e.n++; seen.set(j, e); });
        });
        seen.forEach(function (e) { (e.n === per.length ? all : some).push(e); });
        h.secs = (all.length ? all : some).sort(function (a, b) { return b.score - a.score || a.j - b.j; }).slice(0, 3);
      });
      return hits;
    }
    // search answers query q: done gets the pages to show, best first,
    // each {title, url, section, parts, secs}, and mark, which tells
    // whether a word of their text matched.
    function search(q, done) {
      ready(function () {
        var ws = words(q), qs = [];
        ws.forEach(function (w) {
          if (cjkRE.test(w) && Array.from(w).length > 1) pieces(w).forEach(function (p) { qs.push(candidates(p)); });
          else qs.push(candidates(w));
        });
        if (!qs.length) return done([], function () { return false; });
        var shards = new Set();
        qs.forEach(function (c) { c.keys.forEach(function (v, k) { shards.add("t-" + shardKey(k)); }); });
        need(Array.from(shards).filter(function (n) { return manifest.shardSet.has(n.slice(2)); }), function () {
          var hits = score(qs, function (p) { return words(manifest.pages[p][0]); });
          var docs = new Set(hits.map(function (h) { return "d-" + Math.floor(h.n / manifest.docs); }));
          need(Array.from(docs), function () {
            var marks = new Set(), keys = new Set();
            qs.forEach(function (c) { c.marks.forEach(function (w) { marks.add(w); }); c.keys.forEach(function (v, k) { keys.add(k); }); });
            done(hits.map(function (h) {
              var m = manifest.pages[h.n], d = reg["d-" + Math.floor(h.n / manifest.docs)];
              return { title: m[0], url: m[1], section: m[2], parts: d ? d[h.n % manifest.docs] || [] : [], secs: h.secs, score: h.score };
            }), function (w) { return marks.has(w) || keys.has(stem(w)); });
          });
        });
      });
    }
    return { search: search, ready: ready };
  }

  // snippet finds the first word of text that mark accepts and returns
  // the text around it as [before, word, after], cut to fit a line.
  function snippet(text, mark) {
    var low = text.toLowerCase(), m, at = -1, len = 0;
    wordRE.lastIndex = 0;
    while ((m = wordRE.exec(low))) {
      if (cjkRE.test(m[0])) {
        var rs = Array.from(m[0]), off = 0;
        for (var i = 0; i < rs.length; off += rs[i].length, i++) {
          var pair = rs[i] + (rs[i + 1] || "");
          if (mark(pair) || mark(rs[i])) { at = m.index + off; len = (mark(pair) && rs[i + 1] ? pair : rs[i]).length; break; }
        }
        if (at >= 0) break;
      } else if (mark(m[0])) { at = m.index; len = m[0].length; break; }
    }
    wordRE.lastIndex = 0;
    if (at < 0) return [text.slice(0, 100) + (text.length > 100 ? "…" : ""), "", ""];
    var from = Math.max(0, at - 40);
    return [(from ? "…" : "") + text.slice(from, at), text.slice(at, at + len),
      text.slice(at + len, at + len + 70) + (at + len + 70 < text.length ? "…" : "")];
  }

  g.__docsSearchEngine = { stem: stem, words: words, open: open, snippet: snippet };
})(typeof window !== "undefined" ? window : this);
