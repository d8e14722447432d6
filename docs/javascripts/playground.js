// The playground page: an editor, presets, Run/Stop, the program's printed output and its figures.
// Python comes from python-session.js (a fresh one for every Run; the first is started when the reader
// shows intent: focus in the editor, a pointer on Run, a preset chosen, Run or Load Python). Printed text
// is shown as text (console.js), and every HTML or SVG fragment of a result through sanitizer.js.
import { outputConsole } from "./console.js";
import { everyPage, initPlayers } from "./page.js";
import { limitNote, session as newSession } from "./python-session.js";
import { preload, sanitize } from "./sanitizer.js";
import { decodeProgram, encodeProgram, sharedCode } from "./url.js";

var LONG_LINK = 8000;  // characters: longer links are cut by some browsers, servers and chat apps
var stopPrevious = null;  // the last playground's Python: ended when instant navigation leaves its page

function own(object, key) { return Object.prototype.hasOwnProperty.call(object, key); }

function setUp(root) {
  if (root.dataset.ggReady) return;
  root.dataset.ggReady = "1";
  var presets = JSON.parse(root.getAttribute("data-gg-presets"));
  var code = root.querySelector("textarea");
  var select = root.querySelector("select");
  var status = root.querySelector("[data-gg-status]");
  var output = root.querySelector("[data-gg-output]");
  var printed = outputConsole(/** @type {HTMLElement} */ (root.querySelector("[data-gg-console]")));
  var buttons = {};
  root.querySelectorAll("button[data-gg-do]").forEach(function (b) { buttons[b.dataset.ggDo] = b; });
  var params = new URLSearchParams(window.location.search);
  var session = newSession();
  var runs = 0;
  output.setAttribute("data-gg-sandbox", "");  // what a program draws stays in here (glassgrad.js)

  function say(text) { status.textContent = text; }
  function busy(running, init) {
    var focused = init ? null : document.activeElement;
    buttons.run.disabled = running;
    buttons.stop.disabled = !running;
    // Keep the keyboard's place: the button it was on may have just been disabled.
    if (running && focused === buttons.run) buttons.stop.focus({ preventScroll: true });
    if (!running && focused === buttons.stop) buttons.run.focus({ preventScroll: true });
  }
  function choose(name) {
    if (!own(presets, name)) return false;
    select.value = name;
    code.value = presets[name];
    return true;
  }
  function fromHash() {
    var shared = sharedCode(window.location.hash);
    if (shared === null) return;
    try {
      code.value = decodeProgram(shared);
      say("Loaded the program from the link." + (limitNote ? " " + limitNote : ""));
    } catch {
      say("The link's program could not be read (the #code= part is damaged or cut short): the editor keeps what it had.");
    }
  }
  if (params.has("preset")) choose(params.get("preset"));
  if (limitNote) say(status.textContent + " " + limitNote);
  fromHash();
  window.addEventListener("hashchange", function () { if (root.isConnected) fromHash(); });
  root.hidden = false;
  stopPrevious = function () { session.close(); };

  function warm() { session.warm(); preload().catch(function () {}); }  // intent: Python now, quietly
  function showError(text) {
    var box = document.createElement("div");
    box.className = "gg-pg-error";
    box.setAttribute("role", "alert");
    box.textContent = text;
    output.appendChild(box);
  }
  function show(result, prefix) {
    if (typeof result.error === "string") return Promise.resolve(showError(result.error));
    if (typeof result.note === "string") {  // a program with nothing to draw: its printed output is all
      var note = document.createElement("p");
      note.className = "gg-pg-note";
      note.textContent = result.note;
      output.appendChild(note);
      return Promise.resolve();
    }
    var parts = ["summary", "figure", "order", "cards"].map(function (part) { return sanitize(result[part], prefix); });
    return Promise.all(parts).then(function (safe) {
      var summary = document.createElement("p");
      summary.className = "gg-pg-summary";
      summary.appendChild(safe[0]);
      output.appendChild(summary);
      safe.slice(1).forEach(function (part) { output.appendChild(part); });
      initPlayers(output);
    });
  }
  function run() {
    busy(true);
    runs += 1;
    var prefix = "ggrun" + runs;
    printed.clear();
    output.textContent = "";
    session.run({ code: code.value, prefix: prefix }, { onStatus: say, onOutput: printed.add }).then(function (outcome) {
      if (!outcome.result) { busy(false); say(outcome.message); return; }
      var result = outcome.result;
      show(result, prefix).then(function () {
        busy(false);
        say(typeof result.error === "string" ? "The program stopped with an error (below)."
          : typeof result.note === "string" ? "Done: what the program printed is below."
            : "Done: the graph, the backward pass and every Value's fields are below.");
      }, function (error) { busy(false); say("The result could not be shown: " + String(error && error.message) + "."); });
    });
  }
  buttons.run.addEventListener("click", run);
  buttons.load.addEventListener("click", function () { session.warm(say); preload().catch(function () {}); });
  buttons.stop.addEventListener("click", function () { session.stop(); });
  buttons.reset.addEventListener("click", function () { choose(select.value); });
  buttons.link.addEventListener("click", function () {
    var url = window.location.href.split("#")[0] + "#code=" + encodeProgram(code.value);
    window.history.replaceState(window.history.state, "", url);
    say(url.length > LONG_LINK
      ? "The address bar now links to this program, but the link is " + url.length.toLocaleString("en") + " characters long: links over about " + LONG_LINK.toLocaleString("en") + " may be cut short where you paste them. Shorten the program to share it safely."
      : "The address bar now links to this program: copy it to share or keep it.");
  });
  select.addEventListener("change", function () { choose(select.value); warm(); });
  code.addEventListener("focus", warm);
  buttons.run.addEventListener("pointerenter", warm);
  buttons.run.addEventListener("focus", warm);
  code.addEventListener("keydown", function (event) {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) { event.preventDefault(); if (!buttons.run.disabled) run(); }
  });
  busy(false, true);
}

function setUpAll() {
  var roots = document.querySelectorAll("[data-gg-playground]:not([data-gg-ready])");
  if (roots.length && stopPrevious) stopPrevious();
  if (!document.querySelector("[data-gg-playground]") && stopPrevious) { stopPrevious(); stopPrevious = null; }
  roots.forEach(setUp);
}
everyPage(setUpAll);
