// The platform's GitHub cards (<GitHub.Repo>): the repository's
// description, stars and forks come from GitHub's API as the page loads.
// The export loads this script only on pages with a card, and never in
// an air-gapped bundle; the page's policy allows GitHub's API there.
(function () {
  "use strict";
  var ui = {};
  try { ui = JSON.parse(document.documentElement.getAttribute("data-ui") || "{}"); } catch (e) { /* English */ }
  var cards = document.querySelectorAll("[data-github-repo]");
  var policy = document.querySelector('meta[http-equiv="Content-Security-Policy"]');
  if (!cards.length || !window.fetch || !policy || policy.content.indexOf("https://api.github.com") < 0) return;
  function count(n) {
    return n >= 1000 ? (Math.round(n / 100) / 10).toString().replace(/\.0$/, "") + "k" : String(n);
  }
  Array.prototype.forEach.call(cards, function (card) {
    fetch("https://api.github.com/repos/" + card.getAttribute("data-github-repo"), { headers: { Accept: "application/vnd.github+json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (repo) {
        if (!repo) return;
        var desc = card.querySelector(".github-repo-desc"), counts = card.querySelector(".github-repo-counts");
        if (desc && repo.description) { desc.textContent = repo.description; desc.hidden = false; }
        if (counts && typeof repo.stargazers_count === "number") {
          card.querySelector(".github-stars").textContent = "\u2605 " + count(repo.stargazers_count);
          card.querySelector(".github-forks").textContent = (ui.forks || "{n} forks").replace("{n}", count(repo.forks_count || 0));
          counts.hidden = false;
        }
      })
      .catch(function () { /* offline: the card stays a link */ });
  });
})();
