/*
 * Results as you type in the Ctrl+K search dialog (#pst-search-dialog), on every page.
 *
 * Sphinx's search scripts (language_data.js with the page language's stemmer, searchtools.js,
 * searchindex.js) are not in <head>: they load here, once, when the reader opens the dialog or
 * types in it. Each change of the query then runs Sphinx's own search (Search._parseQuery, with
 * the Korean stemmer on Korean pages, and Search._performSearch) and lists the best results under
 * the field, with snippets cut by Search.makeSearchSummary from the small prose files
 * learnjax_site/search_results.py writes next to each page. Enter still opens the search page.
 * Links are made from the site's root (data-content_root), so they work from any folder.
 * Keyboard: Tab or ArrowDown moves from the field to the results, ArrowUp/ArrowDown between
 * them; Escape closes the dialog, from the field or from a result.
 */
(() => {
  "use strict";
  const MAX_RESULTS = 8;
  const texts = window.LEARNJAX_SEARCH;
  const dialog = document.getElementById("pst-search-dialog");
  const input = dialog && dialog.querySelector("input[name=q]");
  // The search page loads Sphinx's scripts itself and searches in its own field.
  if (!input || !texts || document.getElementById("search-results")) return;

  const root = document.documentElement.dataset.content_root || "";
  const options = DOCUMENTATION_OPTIONS;
  let lastQuery = "";
  let loading = null;

  const loadScript = (src) =>
    new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = src;
      script.onload = resolve;
      script.onerror = () => reject(new Error(`could not load ${src}`));
      document.head.appendChild(script);
    });

  // language_data.js defines Stemmer and stopwords; searchtools.js defines Search;
  // searchindex.js calls Search.setIndex. searchtools.js fills every input[name=q] from the
  // address's ?q= (empty here) when it runs: what the reader typed is put back afterwards.
  const ensureLoaded = () => {
    loading ??= loadScript(`${root}_static/language_data.js`)
      .then(() => loadScript(`${root}_static/searchtools.js`))
      .then(() => {
        input.value = lastQuery;
        return loadScript(`${root}searchindex.js`);
      });
    return loading;
  };

  const panel = document.createElement("div");
  panel.className = "learnjax-search-results";
  panel.setAttribute("role", "region");
  panel.setAttribute("aria-label", texts.label);
  panel.hidden = true;
  const status = panel.appendChild(document.createElement("p"));
  status.className = "learnjax-search-status";
  status.setAttribute("aria-live", "polite");
  const list = panel.appendChild(document.createElement("ol"));
  const more = panel.appendChild(document.createElement("a"));
  more.className = "learnjax-search-more";
  more.href = `${root}search.html`; // a real address from the start (crawlers and Lighthouse read it)
  more.textContent = texts.all;
  dialog.appendChild(panel);

  const prose = new Map(); // prose file address -> promise of its text
  const proseOf = (url) => {
    if (!prose.has(url))
      prose.set(url, fetch(url).then((response) => (response.ok ? response.text() : "")));
    return prose.get(url);
  };

  const resultItem = ([docName, title, anchor], terms, highlight) => {
    const item = document.createElement("li");
    const link = item.appendChild(document.createElement("a"));
    link.href = root + docName + options.LINK_SUFFIX + anchor;
    link.textContent = title;
    proseOf(root + docName + options.FILE_SUFFIX)
      .then((html) => html && Search.makeSearchSummary(html, terms, anchor))
      .then((summary) => {
        if (!summary) return;
        item.appendChild(summary);
        highlight.forEach((term) => _highlightText(summary, term, "highlighted"));
      })
      .catch(() => {}); // a result without its snippet is still a result
    return item;
  };

  const show = (query) => {
    list.replaceChildren();
    if (!query.trim()) {
      panel.hidden = true;
      return;
    }
    panel.hidden = false;
    more.href = `${root}search.html?q=${encodeURIComponent(query)}`;
    if (typeof Search === "undefined" || !Search.hasIndex()) {
      status.textContent = texts.loading;
      return;
    }
    const [text, terms, excluded, highlight, objects] = Search._parseQuery(query);
    localStorage.removeItem("sphinx_highlight_terms"); // _parseQuery keeps them for the search page
    const results = Search._performSearch(text, terms, excluded, highlight, objects).reverse();
    status.textContent = results.length
      ? texts.count.replace("{count}", results.length)
      : texts.none.replace("{query}", query.trim());
    results.slice(0, MAX_RESULTS).forEach((result) => list.appendChild(resultItem(result, terms, highlight)));
  };

  const update = () => {
    lastQuery = input.value;
    show(lastQuery);
    if (typeof Search === "undefined" || !Search.hasIndex())
      ensureLoaded().then(() => show(input.value)).catch(() => {
        status.textContent = texts.failed;
      });
  };

  input.addEventListener("input", update);
  // Opening the dialog starts the download, so results are ready by the first keystroke.
  dialog.addEventListener("focusin", () => ensureLoaded().catch(() => {}));

  const links = () => [...list.querySelectorAll("a"), more];
  dialog.addEventListener("keydown", (event) => {
    // The theme closes the dialog on Escape in the field only; Chromium does not from a result.
    if (event.key === "Escape" && dialog.open) {
      event.preventDefault();
      dialog.close();
      return;
    }
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    const targets = links();
    if (panel.hidden || !targets.length) return;
    const here = event.target === input ? -1 : targets.indexOf(event.target);
    const next = here + (event.key === "ArrowDown" ? 1 : -1);
    event.preventDefault();
    if (next < 0) input.focus();
    else targets[Math.min(next, targets.length - 1)].focus();
  });
})();
