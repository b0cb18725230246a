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
    var run = window.mermaid.run({ nodes: blocks, suppressErrors: true });
    if (run && run.then) run.then(function () { blocks.forEach(addControls); });
  }

  // Zoom and pan controls, as the platform's diagrams have: shown when a
  // diagram is taller than 120 px, or as its fence's actions says; in
  // the corner its placement names. They move the drawing, which keeps
  // its place in the page.
  var ui = {};
  try { ui = JSON.parse(root.getAttribute("data-ui") || "{}"); } catch (e) { /* English */ }
  function t(key, en) { return ui[key] || en; }
  var controls = [
    ["zoomIn", "Zoom in", "+", function (v) { v.s = Math.min(v.s * 1.25, 8); }],
    ["zoomOut", "Zoom out", "\u2212", function (v) { v.s = Math.max(v.s / 1.25, 0.25); }],
    ["moveUp", "Move up", "\u2191", function (v) { v.y -= 40; }],
    ["moveDown", "Move down", "\u2193", function (v) { v.y += 40; }],
    ["moveLeft", "Move left", "\u2190", function (v) { v.x -= 40; }],
    ["moveRight", "Move right", "\u2192", function (v) { v.x += 40; }],
    ["resetView", "Reset view", "\u21ba", function (v) { v.s = 1; v.x = 0; v.y = 0; }]
  ];
  var views = new WeakMap();
  function apply(box) {
    var svg = box.querySelector("pre.mermaid svg"), v = views.get(box);
    if (svg && v) svg.style.transform = "translate(" + v.x + "px, " + v.y + "px) scale(" + v.s + ")";
  }
  function addControls(pre) {
    var box = pre.parentElement;
    if (!box || !box.classList.contains("mermaid-diagram")) return;
    if (views.has(box)) { apply(box); return; } // drawn again in the other theme
    var svg = pre.querySelector("svg");
    var actions = box.getAttribute("data-actions");
    if (!svg || actions === "false" || (actions !== "true" && svg.getBoundingClientRect().height <= 120)) return;
    var view = { s: 1, x: 0, y: 0 };
    views.set(box, view);
    var bar = document.createElement("div");
    bar.className = "diagram-controls " + (box.getAttribute("data-placement") || "bottom-right");
    bar.setAttribute("role", "toolbar");
    controls.forEach(function (c) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "diagram-" + c[0];
      b.textContent = c[2];
      b.title = t(c[0], c[1]);
      b.setAttribute("aria-label", b.title);
      b.addEventListener("click", function () { c[3](view); apply(box); });
      bar.appendChild(b);
    });
    box.classList.add("has-controls");
    box.appendChild(bar);
  }
  draw();
  new MutationObserver(draw).observe(root, { attributes: true, attributeFilter: ["data-theme"] });
})();
