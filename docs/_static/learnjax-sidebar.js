/* Names the sidebar's fold toggles (an icon-only <summary>) after the page they fold (sidebar.py). */
(function () {
  "use strict";
  function name() {
    var format = window.LEARNJAX_SIDEBAR_TOGGLE || "{title}";
    document.querySelectorAll(".bd-sidenav li > details > summary").forEach(function (summary) {
      if (summary.textContent.trim() || summary.hasAttribute("aria-label")) return;
      var link = summary.parentElement.parentElement.querySelector(":scope > a");
      summary.setAttribute("aria-label", format.replace("{title}", link ? link.textContent.trim() : ""));
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", name);
  else name();
})();
