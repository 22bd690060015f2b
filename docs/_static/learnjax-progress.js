/* The reader's progress: which lessons are done, kept in this browser's localStorage only.
 * Key "learnjax-progress": a JSON list of docnames ("origins/what-is-jax"), shared by both languages.
 * Hooks (made by the site's catalog.py and progress.py):
 *   button.learnjax-progress-toggle[data-docname]      on a lesson; aria-pressed tells its state
 *   .learnjax-progress-count[data-lessons][data-format] "{done}"/"{total}" filled in; data-done/-total set
 *   li.learnjax-lesson-entry[data-docname]               gets class learnjax-done
 *   button.learnjax-progress-reset[data-confirm]         clears everything after a confirm()
 * Sidebar links to done lessons get class learnjax-done too. */
(function () {
  "use strict";
  var KEY = "learnjax-progress";

  function load() {
    try {
      var value = JSON.parse(window.localStorage.getItem(KEY) || "[]");
      return Array.isArray(value) ? value.filter(function (d) { return typeof d === "string"; }) : [];
    } catch (error) {
      return [];
    }
  }

  function save(done) {
    window.localStorage.setItem(KEY, JSON.stringify(done));
  }

  function storageWorks() {
    try {
      window.localStorage.setItem(KEY + "-probe", "1");
      window.localStorage.removeItem(KEY + "-probe");
      return true;
    } catch (error) {
      return false;
    }
  }

  /* The docname a link points to, relative to the site's root ("origins/what-is-jax"), or null. */
  function docnameOf(link, root) {
    var url = new URL(link.getAttribute("href"), window.location.href);
    if (url.origin !== root.origin || url.pathname.indexOf(root.pathname) !== 0) return null;
    var path = url.pathname.slice(root.pathname.length);
    if (/\/$/.test(path) || path === "") path += "index.html";
    return path.replace(/\.html$/, "");
  }

  function render() {
    var done = load();
    var isDone = function (d) { return done.indexOf(d) !== -1; };
    document.querySelectorAll("button.learnjax-progress-toggle").forEach(function (button) {
      button.setAttribute("aria-pressed", String(isDone(button.dataset.docname)));
    });
    document.querySelectorAll(".learnjax-progress-count").forEach(function (count) {
      var lessons = count.dataset.lessons.split(" ").filter(Boolean);
      var n = lessons.filter(isDone).length;
      count.dataset.done = String(n);
      count.dataset.total = String(lessons.length);
      count.textContent = count.dataset.format.replace("{done}", n).replace("{total}", lessons.length);
      count.classList.toggle("learnjax-complete", lessons.length > 0 && n === lessons.length);
    });
    document.querySelectorAll("li.learnjax-lesson-entry").forEach(function (entry) {
      entry.classList.toggle("learnjax-done", isDone(entry.dataset.docname));
    });
    var root = new URL(document.documentElement.dataset.content_root || "./", window.location.href);
    document.querySelectorAll(".bd-sidenav a.reference.internal").forEach(function (link) {
      link.classList.toggle("learnjax-done", isDone(docnameOf(link, root)));
    });
  }

  function start() {
    if (!storageWorks()) return;  // no storage, no progress: the controls stay hidden
    document.querySelectorAll(".learnjax-progress-toggle, .learnjax-progress-count, .learnjax-progress-reset, " +
                              ".learnjax-progress-note").forEach(function (element) {
      element.hidden = false;
    });
    document.querySelectorAll("button.learnjax-progress-toggle").forEach(function (button) {
      button.addEventListener("click", function () {
        var done = load().filter(function (d) { return d !== button.dataset.docname; });
        if (button.getAttribute("aria-pressed") !== "true") done.push(button.dataset.docname);
        save(done);
        render();
      });
    });
    document.querySelectorAll("button.learnjax-progress-reset").forEach(function (button) {
      button.addEventListener("click", function () {
        if (window.confirm(button.dataset.confirm)) {
          window.localStorage.removeItem(KEY);
          render();
        }
      });
    });
    window.addEventListener("storage", function (event) {  // another tab changed it
      if (event.key === KEY || event.key === null) render();
    });
    render();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
