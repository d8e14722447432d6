// The exercises page: each exercise's code block becomes an editor with Check, Stop and Reset.
// Check runs the reader's code in the playground's Web Worker (the same Pyodide, time limit and Stop)
// against glassgrad.exercises; hints open one at a time; solved exercises are remembered in localStorage.
(function () {
  "use strict";

  var script = document.currentScript;
  var scriptUrl = script ? script.src : "";
  var DEFAULT_LIMIT_S = 10;
  var SOLVED_KEY = "glassgrad-exercises-solved";
  var CODE_KEY = "glassgrad-exercises-code";
  var stopPrevious = null;  // the last page's Python: ended when instant navigation leaves the page

  function load(key) {
    try { return JSON.parse(window.localStorage.getItem(key) || "{}") || {}; } catch (error) { return {}; }
  }
  function save(key, value) {
    try { window.localStorage.setItem(key, JSON.stringify(value)); } catch (error) { /* storage refused: progress is not kept */ }
  }
  function forget() {
    try { window.localStorage.removeItem(SOLVED_KEY); window.localStorage.removeItem(CODE_KEY); } catch (error) { /* nothing kept */ }
  }

  function element(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) { node.setAttribute(name, attrs[name]); });
    if (text) node.textContent = text;
    return node;
  }

  // One Python for the whole page, in the playground's worker, started by the first Check.
  function Python(limit, onDone) {
    var base = new URL("../assets/playground/", scriptUrl).href;
    var workerUrl = new URL("playground-worker.js", scriptUrl).href;
    var worker = null, timer = null, current = null, checks = 0;

    function start() {
      worker = new Worker(workerUrl, { type: "module" });
      worker.onmessage = function (event) { receive(event.data); };
      worker.onerror = function (event) {
        stop();  // no quiet restart here: a worker that cannot start would fail again at once
        finish({ error: "Python could not start: " + (event.message || "the worker failed") + ". Press Check to try again." }, false);
      };
    }
    function stop() {
      if (timer) window.clearTimeout(timer);
      timer = null;
      if (worker) worker.terminate();
      worker = null;
    }
    function finish(result, restart) {
      var asker = current;
      current = null;
      if (timer) window.clearTimeout(timer);
      timer = null;
      if (restart) {
        // A stopped check takes its Python with it: start a fresh one now, quietly, so the next Check is quick.
        stop(); start(); worker.postMessage({ type: "load", base: base });
      }
      if (asker) onDone(asker, result);
    }
    function receive(message) {
      if (!current) return;
      if (message.type === "progress") current.say(message.text);
      else if (message.type === "running") {
        current.say("Checking… (stopped after " + limit + " s)");
        timer = window.setTimeout(function () {
          finish({ error: "Stopped: the check ran for more than " + limit + " s. Is there a loop that never ends?" }, true);
        }, limit * 1000);
      } else if (message.type === "result") finish(message.result, false);
      else if (message.type === "failed") finish({ error: "Python could not start or run: " + message.text + ". Press Check to try again." }, true);
    }
    return {
      busy: function () { return current !== null; },
      check: function (asker, name, code) {
        if (!worker) start();
        current = asker;
        checks += 1;
        worker.postMessage({ type: "check", base: base, exercise: name, code: code, prefix: "ggcheck" + checks });
      },
      stop: function () { if (current) finish({ error: "Stopped. Press Check to start again." }, true); },
      end: stop,
    };
  }

  // HTML from the worker (the graph drawn by glassgrad.viz) goes through the playground's sanitizer,
  // DOMPurify, served by the site next to Pyodide and loaded with the first figure.
  var purifier = null;
  function sanitizer() {
    if (!purifier) {
      purifier = import(new URL("../assets/playground/dompurify/purify.es.mjs", scriptUrl).href)
        .then(function (module) { return module.default; });
    }
    return purifier;
  }
  function sanitized(markup) {
    return sanitizer().then(function (purify) {
      return purify.sanitize(markup, { USE_PROFILES: { html: true, svg: true }, RETURN_DOM_FRAGMENT: true });
    });
  }

  function setUpPage(page) {
    var params = new URLSearchParams(window.location.search);
    var limit = parseFloat(params.get("limit") || DEFAULT_LIMIT_S);
    var exercises = Array.prototype.slice.call(page.querySelectorAll("[data-gg-exercise]"));
    var progress = page.querySelector("[data-gg-ex-progress]");
    var solved = load(SOLVED_KEY), drafts = load(CODE_KEY);
    var boxes = {};
    var python = Python(limit, function (box, result) { box.show(result); });
    stopPrevious = python.end;

    function showProgress() {
      progress.textContent = "";
      var names = exercises.map(function (e) { return e.dataset.ggExercise; });
      var done = names.filter(function (name) { return solved[name]; });
      var text = element("span", {}, done.length ? "Solved " + done.length + " of " + names.length + " in this browser." : "No exercise solved yet in this browser.");
      progress.appendChild(text);
      if (done.length || Object.keys(drafts).length) {
        var clear = element("button", { type: "button", class: "gg-ex-button" }, "Clear progress");
        clear.addEventListener("click", function () {
          forget(); solved = {}; drafts = {};
          Object.keys(boxes).forEach(function (name) { boxes[name].reset(); });
          showProgress();
          progress.querySelector("span").textContent = "Progress cleared: every exercise is back to its starting code.";
        });
        progress.appendChild(clear);
      }
      progress.hidden = false;
      Object.keys(boxes).forEach(function (name) { boxes[name].mark(!!solved[name]); });
    }

    exercises.forEach(function (holder) {
      var name = holder.dataset.ggExercise;
      var block = holder.querySelector("pre > code");
      if (!block) return;
      var starting = block.textContent.replace(/\n$/, "");
      var heading = holder.previousElementSibling;
      while (heading && !/^H[23]$/.test(heading.tagName)) heading = heading.previousElementSibling;
      var title = heading ? heading.textContent.replace(/[¶✓]/g, "").replace(/solved$/, "").trim() : name;

      var editorId = "gg-ex-code-" + name;
      var label = element("label", { for: editorId, class: "gg-ex-label" }, "Your code for " + title);
      var code = element("textarea", {
        id: editorId, rows: String(starting.split("\n").length + 1), wrap: "off",
        spellcheck: "false", autocapitalize: "off", autocomplete: "off", class: "gg-ex-code",
      });
      code.value = drafts[name] || starting;
      var bar = element("div", { class: "gg-ex-bar" });
      var checkButton = element("button", { type: "button", class: "gg-ex-button gg-ex-check" }, "Check");
      var stopButton = element("button", { type: "button", class: "gg-ex-button" }, "Stop");
      var resetButton = element("button", { type: "button", class: "gg-ex-button" }, "Reset");
      stopButton.disabled = true;
      bar.appendChild(checkButton); bar.appendChild(stopButton); bar.appendChild(resetButton);
      var status = element("p", { class: "gg-ex-status", role: "status", "aria-live": "polite" });
      var output = element("div", { class: "gg-ex-output" });
      var badge = heading ? element("span", { class: "gg-ex-badge" }, "✓ solved") : null;
      if (badge) { badge.hidden = true; heading.insertBefore(badge, heading.querySelector(".headerlink")); }

      var box = {
        say: function (text) { status.textContent = text; },
        mark: function (isSolved) { if (badge) badge.hidden = !isSolved; },
        reset: function () { code.value = starting; output.textContent = ""; status.textContent = ""; },
        show: function (result) {
          checkButton.disabled = false; stopButton.disabled = true;
          output.textContent = "";
          var verdict = element("div", { class: "gg-ex-verdict" });
          if (result.error) {
            verdict.classList.add("gg-ex-fail");
            verdict.textContent = result.error;
            box.say("The check did not finish (below).");
          } else {
            verdict.classList.add(result.passed ? "gg-ex-pass" : "gg-ex-fail");
            verdict.textContent = (result.passed ? "✓ " : "✗ Not yet. ") + result.message;
            box.say(result.passed ? "Passed." : "Not yet: the first wrong thing is named below.");
            if (result.passed) { solved[name] = true; save(SOLVED_KEY, solved); showProgress(); }
          }
          output.appendChild(verdict);
          if (!result.figure) return;
          sanitized(result.figure).then(function (figure) {
            if (output.firstChild === verdict) output.appendChild(figure);  // unless another check has begun
          }, function () {
            output.appendChild(element("p", {}, "(The graph could not be loaded.)"));
          });
        },
      };
      boxes[name] = box;

      function check() {
        if (python.busy()) { box.say("Another check is running: wait for it, or press its Stop."); return; }
        drafts[name] = code.value; save(CODE_KEY, drafts);
        checkButton.disabled = true; stopButton.disabled = false;
        output.textContent = "";
        box.say("Loading Python (the first check downloads it from this site)…");
        python.check(box, name, code.value);
      }
      checkButton.addEventListener("click", check);
      stopButton.addEventListener("click", function () { python.stop(); });
      resetButton.addEventListener("click", function () {
        box.reset(); delete drafts[name]; save(CODE_KEY, drafts);
        box.say("Back to the starting code.");
      });
      code.addEventListener("keydown", function (event) {
        if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) { event.preventDefault(); if (!checkButton.disabled) check(); }
      });

      var highlight = block.closest(".highlight") || block.parentNode;
      highlight.hidden = true;  // the starting code, for readers without JavaScript
      holder.appendChild(label); holder.appendChild(code); holder.appendChild(bar);
      holder.appendChild(status); holder.appendChild(output);
    });

    // Hints: the next one appears once the one before it has been opened.
    page.querySelectorAll(".gg-ex-hints").forEach(function (group) {
      var hints = Array.prototype.slice.call(group.querySelectorAll("details"));
      hints.forEach(function (hint, i) {
        if (i > 0) hint.hidden = !hints[i - 1].open;
        hint.addEventListener("toggle", function () { if (hint.open && hints[i + 1]) hints[i + 1].hidden = false; });
      });
    });
    showProgress();
  }

  function setUpAll() {
    if (stopPrevious) { stopPrevious(); stopPrevious = null; }
    var page = document.querySelector("[data-gg-ex-progress]");
    if (page && !page.dataset.ggReady) {
      page.dataset.ggReady = "1";
      setUpPage(page.closest("article") || document);
    }
  }
  if (window.document$ && window.document$.subscribe) window.document$.subscribe(setUpAll);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUpAll);
  else setUpAll();
})();
