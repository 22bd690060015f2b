/* The sidebars' controls (learnjax_site.sidebar):
 * 1. the ☰ and contents buttons of the article header open and close the sidebars at every width;
 * 2. the sidebar's fold toggles (an icon-only <summary>) are named after the page they fold. */
(function () {
  "use strict";

  /* 1. pydata-sphinx-theme 0.20 puts a second, hidden pair of .primary-toggle/.secondary-toggle in
   * the top bar, before the article header's visible pair, and both themes bind their click
   * handlers with document.querySelector, i.e. to the hidden pair only (the dialog on narrow
   * screens: pydata-sphinx-theme's mixin.js; collapsing the sidebar at >= 992 px:
   * sphinx-book-theme's fixSidebarToggle). A click on a visible toggle is handed to the bound
   * (first) toggle of its kind, which does what the theme means at the current width.
   * Remove this part when upstream ships the fix: pydata-sphinx-theme#2451 (bind every toggle) and
   * sphinx-book-theme PR #991 (bind every toggle on wide screens), both open as of 0.20.0 / 1.4.0.
   * Until then it is harmless there too: a click is handed on only when its button is not the
   * first of its kind, and stopped before any handler of the button's own could run twice. */
  function forwardToggleClicks() {
    document.addEventListener("click", function (event) {
      var button = event.target.closest && event.target.closest(".primary-toggle, .secondary-toggle");
      if (!button) return;
      var kind = button.classList.contains("primary-toggle") ? ".primary-toggle" : ".secondary-toggle";
      var bound = document.querySelector(kind);
      if (!bound || bound === button) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      button.blur(); // its tooltip goes with the focus (what the theme does for the bound one)
      bound.click();
    }, true);
  }

  /* 2. An unnamed <summary> is an unnamed control (axe: summary-name). */
  function nameFoldToggles() {
    var format = window.LEARNJAX_SIDEBAR_TOGGLE || "{title}";
    document.querySelectorAll(".bd-sidenav li > details > summary").forEach(function (summary) {
      if (summary.textContent.trim() || summary.hasAttribute("aria-label")) return;
      var link = summary.parentElement.parentElement.querySelector(":scope > a");
      summary.setAttribute("aria-label", format.replace("{title}", link ? link.textContent.trim() : ""));
    });
  }

  forwardToggleClicks();
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", nameFoldToggles);
  else nameFoldToggles();
})();
