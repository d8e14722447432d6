// The exercises page: each exercise's code block becomes an editor with Check, Stop and Reset.
// Check runs the reader's code through python-session.js (a fresh Python per Check, the time limit, Stop)
// against glassgrad.exercises, and shows the answer as text and the marked graph through sanitizer.js;
// hints open one at a time; solved exercises are kept in localStorage.
import { outputConsole } from "./console.js";
import { element, everyPage } from "./page.js";
import { session as newSession } from "./python-session.js";
import { sanitize } from "./sanitizer.js";

var SOLVED_KEY = "glassgrad-exercises-solved";
var CODE_KEY = "glassgrad-exercises-code";
var stopPrevious = null;  // the last page's Python: ended when instant navigation leaves the page

function load(key) {
  try { return JSON.parse(window.localStorage.getItem(key) || "{}") || {}; } catch { return {}; }
}
function save(key, value) {
  try { window.localStorage.setItem(key, JSON.stringify(value)); } catch { /* storage refused: progress is not kept */ }
}
function forget() {
  try { window.localStorage.removeItem(SOLVED_KEY); window.localStorage.removeItem(CODE_KEY); } catch { /* nothing kept */ }
}

function setUpPage(page) {
  var exercises = Array.prototype.slice.call(page.querySelectorAll("[data-gg-exercise]"));
  var progress = page.querySelector("[data-gg-ex-progress]");
  var solved = load(SOLVED_KEY), drafts = load(CODE_KEY);
  var boxes = {};
  var session = newSession({ checks: true }), checks = 0;
  stopPrevious = session.close;

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
    var printedBox = element("pre", { class: "gg-ex-printed", tabindex: "0", "aria-label": "What your code printed" });
    var printed = outputConsole(printedBox);
    output.setAttribute("data-gg-sandbox", "");  // what a check draws stays in here (glassgrad.js)
    var badge = heading ? element("span", { class: "gg-ex-badge" }, "✓ solved") : null;
    if (badge) { badge.hidden = true; heading.insertBefore(badge, heading.querySelector(".headerlink")); }

    var box = {
      say: function (text) { status.textContent = text; },
      mark: function (isSolved) { if (badge) badge.hidden = !isSolved; },
      reset: function () { code.value = starting; box.clear(); status.textContent = ""; },
      clear: function () { output.textContent = ""; printed.clear(); },
      show: function (result, prefix) {
        checkButton.disabled = false; stopButton.disabled = true;
        output.textContent = "";
        result = result && typeof result === "object" ? result : { error: "The check gave no answer." };
        var verdict = element("div", { class: "gg-ex-verdict" });
        if (typeof result.error === "string") {
          verdict.classList.add("gg-ex-fail");
          verdict.textContent = result.error;
          box.say("The check did not finish (below).");
        } else {
          var passed = result.passed === true;
          verdict.classList.add(passed ? "gg-ex-pass" : "gg-ex-fail");
          verdict.textContent = (passed ? "✓ " : "✗ Not yet. ") + String(result.message);
          box.say(passed ? "Passed." : "Not yet: the first wrong thing is named below.");
          if (passed) { solved[name] = true; save(SOLVED_KEY, solved); showProgress(); }
        }
        output.appendChild(verdict);
        if (typeof result.figure !== "string" || !result.figure) return;
        sanitize(result.figure, prefix).then(function (figure) {
          if (output.firstChild === verdict) output.appendChild(figure);  // unless another check has begun
        }, function (error) {
          if (output.firstChild === verdict) output.appendChild(element("p", {}, "(The graph could not be shown: " + String(error && error.message) + ".)"));
        });
      },
    };
    boxes[name] = box;

    // The right formula is told only once the reader has opened every hint (or the solution), or asks for it.
    var folds = [];
    for (var next = holder.nextElementSibling; next && !/^H[23]$/.test(next.tagName); next = next.nextElementSibling) {
      folds = folds.concat(Array.prototype.slice.call(next.matches("details") ? [next] : next.querySelectorAll("details")));
    }
    folds.forEach(function (fold) { fold.addEventListener("toggle", function () { if (fold.open) fold.ggOpened = true; }); });
    function revealed() {
      var hints = folds.filter(function (fold) { return !fold.matches(".success"); });
      return folds.some(function (fold) { return fold.ggOpened && fold.matches(".success"); }) ||
        (hints.length > 0 && hints.every(function (hint) { return hint.ggOpened; }));
    }

    // `explained`: the failed check whose right formula the reader asked for. The check runs again (the page holds
    // no answer), and the answer joins that check's message: its inputs, numbers and graph stay as they were.
    function check(reveal, explained) {
      if (session.busy()) { box.say("Another check is running: wait for it, or press its Stop."); return; }
      drafts[name] = code.value; save(CODE_KEY, drafts);
      checkButton.disabled = true; stopButton.disabled = false;
      if (!explained) box.clear();
      checks += 1;
      var checked = code.value;
      var prefix = "ggcheck" + checks, request = { code: checked, prefix: prefix, exercise: name, reveal: reveal === true || revealed() };
      var quiet = function () { /* what the program prints was shown by the check being explained */ };
      session.run(request, { onStatus: box.say, onOutput: explained ? quiet : printed.add }).then(function (outcome) {
        var result = outcome.result || {};
        var verdict = output.querySelector(".gg-ex-verdict");
        if (explained && verdict && result.passed === false && result.answer && result.edge === explained.edge && checked === explained.code) {
          checkButton.disabled = false; stopButton.disabled = true;
          verdict.textContent += "\n" + String(result.answer);
          explained.ask.remove();
          box.say("Not yet: the right formula is below the check's message.");
          return;
        }
        if (explained) box.clear();
        box.show(outcome.result || { error: outcome.message }, prefix);
        if (result.passed === false && result.has_answer && !result.answer) {
          var ask = element("button", { type: "button", class: "gg-ex-button gg-ex-reveal" }, "Show the right formula");
          var shown = { edge: result.edge, code: checked, ask: ask };
          ask.addEventListener("click", function () { check(true, shown); });
          output.appendChild(ask);
        }
      });
    }
    checkButton.addEventListener("click", function () { check(false); });
    stopButton.addEventListener("click", function () { session.stop(); });
    code.addEventListener("focus", function () { session.warm(); });
    resetButton.addEventListener("click", function () {
      box.reset(); delete drafts[name]; save(CODE_KEY, drafts);
      box.say("Back to the starting code.");
    });
    code.addEventListener("keydown", function (event) {
      if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) { event.preventDefault(); if (!checkButton.disabled) check(false); }
    });

    var highlight = block.closest(".highlight") || block.parentNode;
    highlight.hidden = true;  // the starting code, for readers without JavaScript
    holder.appendChild(label); holder.appendChild(code); holder.appendChild(bar);
    holder.appendChild(status); holder.appendChild(output); holder.appendChild(printedBox);
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
  var page = /** @type {HTMLElement | null} */ (document.querySelector("[data-gg-ex-progress]"));
  if (page && !page.dataset.ggReady) {
    page.dataset.ggReady = "1";
    setUpPage(page.closest("article") || document);
  }
}
everyPage(setUpAll);
