// Endpoint pages: the server selector, and the selector of a response
// status with several examples. The "Try it" panel is in playground.js,
// which only bundles with the playground feature ship, so an air-gapped
// bundle without it holds no code that sends requests.
(function () {
  "use strict";
  var urlCode = document.querySelector(".api-url code");
  var topSelect = document.querySelector(".api-server-select");
  if (topSelect && urlCode) topSelect.addEventListener("change", function () {
    urlCode.textContent = topSelect.value.replace(/\/+$/, "") + urlCode.getAttribute("data-path");
  });

  // Without script every example of a status shows under its title; with
  // it, the selector shows one at a time.
  Array.prototype.forEach.call(document.querySelectorAll(".api-status-examples"), function (group) {
    var pick = group.querySelector(".api-example-select");
    var blocks = Array.prototype.filter.call(group.children, function (c) { return c.classList.contains("code-block"); });
    if (!pick || blocks.length < 2) return;
    pick.hidden = false;
    function show(n) { blocks.forEach(function (b, i) { b.hidden = i !== n; }); }
    pick.addEventListener("change", function () { show(+pick.value); });
    show(+pick.value || 0);
  });
})();
