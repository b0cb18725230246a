// Draws the page's Mermaid diagrams (pre.mermaid, written by the export
// from ```mermaid fences) with the Mermaid the bundle ships, in the
// page's light or dark theme, and again whenever the reader switches
// theme. Without script the source stays readable as a code block.
(function () {
  "use strict";
  var root = document.documentElement;
  var blocks = Array.prototype.slice.call(document.querySelectorAll("pre.mermaid"));
  if (!blocks.length || !window.mermaid) return;
  blocks.forEach(function (b) { b.setAttribute("data-source", b.textContent); });
  var drawn = null;
  function draw() {
    var theme = root.dataset.theme === "dark" ? "dark" : "default";
    if (theme === drawn) return;
    drawn = theme;
    // strict: labels are text, and a diagram can neither run script nor
    // link to it.
    window.mermaid.initialize({ startOnLoad: false, securityLevel: "strict", theme: theme });
    blocks.forEach(function (b) {
      b.removeAttribute("data-processed");
      b.textContent = b.getAttribute("data-source");
    });
    window.mermaid.run({ nodes: blocks, suppressErrors: true });
  }
  draw();
  new MutationObserver(draw).observe(root, { attributes: true, attributeFilter: ["data-theme"] });
})();
