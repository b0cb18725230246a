function (html) {
  // Inserts a large sidebar (frame/bignav.go) where its <script> stands,
  // while the page is parsed. Its links are written from the bundle root;
  // the page's data-root makes them relative to the page, as the sidebar
  // of a small section is, so they work from a local file and under any base path.
  var s = document.currentScript;
  if (!s || !s.parentNode) return;
  var root = document.documentElement.getAttribute("data-root") || "";
  var cur = s.getAttribute("data-current");
  var t = document.createElement("template");
  t.innerHTML = html;
  var links = t.content.querySelectorAll("a[href],img[src]"), mark = null;
  for (var i = 0; i < links.length; i++) {
    var e = links[i], n = e.tagName === "A" ? "href" : "src", v = e.getAttribute(n);
    // The page's own link, as MarkCurrent finds it: a page link, not a
    // group title leading to its first page.
    if (!mark && cur && n === "href" && v === cur && !e.hasAttribute("class")) mark = e;
    if (root && !/^([a-zA-Z][a-zA-Z0-9+.-]*:|[#/])/.test(v)) e.setAttribute(n, root + v.replace(/^\.\//, ""));
  }
  if (mark) {
    mark.setAttribute("aria-current", "page");
    for (var d = mark.parentNode; d; d = d.parentNode) if (d.tagName === "DETAILS") d.open = true;
  }
  s.parentNode.insertBefore(t.content, s);
  // A long list would open at its top: bring the page's link into view.
  if (mark) document.addEventListener("DOMContentLoaded", function () {
    var nav = document.getElementById("sidebar");
    if (nav && nav.clientHeight && mark.offsetParent === nav) nav.scrollTop = mark.offsetTop - nav.clientHeight / 3;
  });
}
