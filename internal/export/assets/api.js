// Endpoint pages: the server selector. The "Try it" panel is in
// playground.js, which only bundles with the playground feature ship, so
// an air-gapped bundle without it holds no code that sends requests.
(function () {
  "use strict";
  var urlCode = document.querySelector(".api-url code");
  var topSelect = document.querySelector(".api-server-select");
  if (topSelect && urlCode) topSelect.addEventListener("change", function () {
    urlCode.textContent = topSelect.value.replace(/\/+$/, "") + urlCode.getAttribute("data-path");
  });
})();
