// The playground page: an editor, presets, Run/Stop and the output area. Python runs in
// playground-worker.js, started only when the reader asks (Run or Load Python).
(function () {
  "use strict";

  var script = document.currentScript;
  var scriptUrl = script ? script.src : "";
  var DEFAULT_LIMIT_S = 10;
  var stopPrevious = null;  // the last playground's Python: ended when instant navigation leaves its page

  // #code=… holds a program as base64url of its UTF-8 bytes, so a reader can link to what they wrote.
  function encode(text) {
    var bytes = new TextEncoder().encode(text), binary = "";
    bytes.forEach(function (b) { binary += String.fromCharCode(b); });
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  function decode(text) {
    var binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(binary, function (c) { return c.charCodeAt(0); }));
  }

  function setUp(root) {
    if (root.dataset.ggReady) return;
    root.dataset.ggReady = "1";
    var presets = JSON.parse(root.querySelector("[data-gg-presets]").textContent);
    var code = root.querySelector("textarea");
    var select = root.querySelector("select");
    var status = root.querySelector("[data-gg-status]");
    var output = root.querySelector("[data-gg-output]");
    var buttons = {};
    root.querySelectorAll("button[data-gg-do]").forEach(function (b) { buttons[b.dataset.ggDo] = b; });
    var params = new URLSearchParams(window.location.search);
    var limit = parseFloat(params.get("limit") || root.dataset.ggLimit || DEFAULT_LIMIT_S);
    var base = new URL("../assets/playground/", scriptUrl).href;
    var workerUrl = new URL("playground-worker.js", scriptUrl).href;
    var worker = null, timer = null, runs = 0, asked = false;

    function say(text) { status.textContent = text; }
    function busy(running) {
      buttons.run.disabled = running;
      buttons.stop.disabled = !running;
    }
    function choose(name) {
      if (!presets[name]) return;
      select.value = name;
      code.value = presets[name];
    }
    var wanted = params.get("preset");
    if (wanted && presets[wanted]) choose(wanted);
    var shared = /^#code=([A-Za-z0-9_-]*)$/.exec(window.location.hash);
    if (shared) {
      try { code.value = decode(shared[1]); } catch (error) { say("The link's code could not be read; the preset is shown instead."); }
    }
    root.hidden = false;
    stopPrevious = function () { stopWorker(); };

    function stopWorker() {
      if (timer) window.clearTimeout(timer);
      timer = null;
      if (worker) worker.terminate();
      worker = null;
    }
    function startWorker() {
      worker = new Worker(workerUrl, { type: "module" });
      worker.onmessage = function (event) { onMessage(event.data); };
      worker.onerror = function (event) {
        stopWorker(); busy(false);
        say("Python could not start: " + (event.message || "the worker failed") + ". Press Run to try again.");
      };
    }
    function show(result) {
      output.textContent = "";
      var box = document.createElement("div");
      if (result.error) {
        box.className = "gg-pg-error";
        box.setAttribute("role", "alert");
        box.textContent = result.error;
        output.appendChild(box);
        return;
      }
      box.innerHTML = '<p class="gg-pg-summary"></p>' + result.figure + result.order + result.cards;
      box.querySelector(".gg-pg-summary").innerHTML = result.summary;
      output.appendChild(box);
      if (window.glassgrad && window.glassgrad.players) window.glassgrad.players.initAll(output);
    }
    function restart(text) {
      // A stopped program takes its Python with it: start a fresh one now, quietly, so the next Run is quick.
      stopWorker(); busy(false);
      say(text);
      asked = false;
      startWorker();
      worker.postMessage({ type: "load", base: base });
    }
    function onMessage(message) {
      if (message.type === "progress") { if (asked) say(message.text); }
      else if (message.type === "ready") { if (asked) say("Python is ready (loaded in " + message.seconds.toFixed(1) + " s)."); }
      else if (message.type === "running") {
        say("Running… (stopped after " + limit + " s)");
        timer = window.setTimeout(function () {
          restart("Stopped: the program ran for more than " + limit + " s. Press Run to start again.");
        }, limit * 1000);
      } else if (message.type === "result") {
        if (timer) window.clearTimeout(timer);
        timer = null; busy(false);
        show(message.result);
        say(message.result.error ? "The program stopped with an error (below)." : "Done: the graph, the backward pass and every Value's fields are below.");
      } else if (message.type === "failed") {
        stopWorker(); busy(false);
        say("Python could not start or run: " + message.text + ". Press Run to try again.");
      }
    }
    function run() {
      asked = true;
      if (!worker) startWorker();
      busy(true);
      runs += 1;
      worker.postMessage({ type: "run", base: base, code: code.value, prefix: "ggrun" + runs });
    }
    buttons.run.addEventListener("click", run);
    buttons.load.addEventListener("click", function () {
      asked = true;
      if (!worker) { startWorker(); worker.postMessage({ type: "load", base: base }); }
    });
    buttons.stop.addEventListener("click", function () { restart("Stopped. Press Run to start again."); });
    buttons.reset.addEventListener("click", function () { choose(select.value); });
    buttons.link.addEventListener("click", function () {
      var url = window.location.href.split("#")[0] + "#code=" + encode(code.value);
      window.history.replaceState(window.history.state, "", url);
      say("The address bar now links to this program: copy it to share or keep it.");
    });
    select.addEventListener("change", function () { choose(select.value); });
    code.addEventListener("keydown", function (event) {
      if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) { event.preventDefault(); if (!buttons.run.disabled) run(); }
    });
    busy(false);
  }

  function setUpAll() {
    var roots = document.querySelectorAll("[data-gg-playground]:not([data-gg-ready])");
    if (roots.length && stopPrevious) stopPrevious();
    if (!document.querySelector("[data-gg-playground]") && stopPrevious) { stopPrevious(); stopPrevious = null; }
    roots.forEach(setUp);
  }
  if (window.document$ && window.document$.subscribe) window.document$.subscribe(setUpAll);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUpAll);
  else setUpAll();
})();
