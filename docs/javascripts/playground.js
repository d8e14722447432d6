// The playground page: an editor, presets, Run/Stop, the program's printed output and its figures.
// Python runs in playground-worker.js (its protocol is described at its top), started when the reader
// shows intent: focus in the editor, a pointer on Run, a preset chosen, Run or Load Python.
// Nothing the worker sends is trusted: printed text is shown as text, and every HTML or SVG fragment
// of a result passes through DOMPurify (served by the site) before it reaches the page. The page owns
// the time limit: only the current worker's private port, with the current run's secret id, ends it.
(function () {
  "use strict";

  var script = document.currentScript;
  var scriptUrl = script ? script.src : "";
  var DEFAULT_LIMIT_S = 10;
  var MAX_LINES = 2000;  // printed lines kept on screen (the latest)
  var LONG_LINK = 8000;  // characters: longer links are cut by some browsers, servers and chat apps
  var stopPrevious = null;  // the last playground's Python: ended when instant navigation leaves its page
  var purifier = null;

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
  function own(object, key) { return Object.prototype.hasOwnProperty.call(object, key); }

  // DOMPurify, with its HTML and SVG profiles; nothing that could load from elsewhere or restyle the page.
  var PURIFY = {
    USE_PROFILES: { html: true, svg: true },
    FORBID_TAGS: ["style", "img", "image", "use", "a", "form", "iframe", "object", "embed", "video", "audio", "source", "picture", "link", "meta", "base", "foreignObject"],
    FORBID_ATTR: ["href", "xlink:href", "src", "srcset", "action", "formaction", "background", "ping"],
  };
  function loadPurifier(base) {
    if (!purifier) {
      purifier = import(base + "dompurify/purify.es.mjs").then(function (module) {
        var purify = module.default;
        purify.addHook("uponSanitizeAttribute", function (node, data) {
          // Our figures size their SVG with a style attribute; a style that could fetch or escape goes.
          if (data.attrName === "style" && /url|image|expression|@|\\|</i.test(data.attrValue)) data.keepAttr = false;
        });
        return purify;
      });
    }
    return purifier;
  }
  function sanitize(purify, html) { return purify.sanitize(String(html), PURIFY); }  // sanitized: the only way in

  // The players' frames ride in <script class="gg-frames"> (JSON), which DOMPurify removes: they are read
  // first, checked, their HTML texts sanitized, and put back as inert JSON, written as text.
  function cleanFrames(purify, text) {
    var parsed = JSON.parse(text), frames = [];
    if (!parsed || !Array.isArray(parsed.frames)) return null;
    parsed.frames.forEach(function (frame) {
      if (!frame || typeof frame !== "object") return;
      var clean = { marks: {}, texts: {}, label: String(frame.label || ""), text: String(frame.text || ""), focus: String(frame.focus || "") };
      Object.keys(frame.marks || {}).forEach(function (id) { clean.marks[id] = String(frame.marks[id]).replace(/[^\w -]/g, ""); });
      Object.keys(frame.texts || {}).forEach(function (id) { clean.texts[id] = sanitize(purify, frame.texts[id]); });
      frames.push(clean);
    });
    return frames.length ? { frames: frames } : null;
  }
  function fragment(purify, html) {
    var parsed = new DOMParser().parseFromString("<body>" + String(html), "text/html");  // inert: nothing runs
    var frames = [];
    parsed.querySelectorAll("[data-gg-frames-slot]").forEach(function (el) { el.removeAttribute("data-gg-frames-slot"); });
    parsed.querySelectorAll("script.gg-frames").forEach(function (holder) {
      var player = holder.closest(".gg-player");
      var clean = null;
      try { clean = cleanFrames(purify, holder.textContent); } catch (error) { clean = null; }
      if (player && clean) { player.setAttribute("data-gg-frames-slot", String(frames.length)); frames.push(clean); }
    });
    var safe = purify.sanitize(parsed.body.innerHTML, Object.assign({ RETURN_DOM_FRAGMENT: true }, PURIFY));  // sanitized
    safe.querySelectorAll("[data-gg-frames-slot]").forEach(function (player) {
      var clean = frames[Number(player.getAttribute("data-gg-frames-slot"))];
      player.removeAttribute("data-gg-frames-slot");
      if (!clean) return;
      var holder = document.createElement("script");
      holder.type = "application/json";
      holder.className = "gg-frames";
      holder.textContent = JSON.stringify(clean).replace(/</g, "\\u003c");
      player.appendChild(holder);
    });
    return safe;
  }

  // Other page scripts (the exercises page) put the worker's figures in the page through this same sanitizer.
  var ns = (window.glassgrad = window.glassgrad || {});
  ns.sanitizedFragment = function (html) {
    return loadPurifier(new URL("../assets/playground/", scriptUrl).href).then(function (purify) { return fragment(purify, html); });
  };

  // One Python in the playground's Web Worker (its protocol: top of playground-worker.js), shared with the
  // exercises page. Only its private port is read (never messages posted on the worker itself, which the
  // reader's program can do); after close() neither the port nor the worker reaches the page again.
  ns.openPython = function (onMessage, onFailure) {
    var worker = new Worker(new URL("playground-worker.js", scriptUrl).href, { type: "module" });
    var channel = new MessageChannel();
    var python = { port: channel.port1, closed: false };
    python.close = function () {
      python.closed = true;
      channel.port1.onmessage = null;
      channel.port1.close();
      worker.onerror = null;
      worker.terminate();
    };
    channel.port1.onmessage = function (event) { if (!python.closed) onMessage(event.data); };
    worker.onerror = function (event) { if (!python.closed) onFailure(event.message || "the worker failed"); };
    worker.postMessage({ type: "connect", base: new URL("../assets/playground/", scriptUrl).href }, [channel.port2]);
    return python;
  };

  function setUp(root) {
    if (root.dataset.ggReady) return;
    root.dataset.ggReady = "1";
    var presets = JSON.parse(root.getAttribute("data-gg-presets"));
    var code = root.querySelector("textarea");
    var select = root.querySelector("select");
    var status = root.querySelector("[data-gg-status]");
    var output = root.querySelector("[data-gg-output]");
    var printed = root.querySelector("[data-gg-console]");
    var buttons = {};
    root.querySelectorAll("button[data-gg-do]").forEach(function (b) { buttons[b.dataset.ggDo] = b; });
    var params = new URLSearchParams(window.location.search);
    var base = new URL("../assets/playground/", scriptUrl).href;
    var session = null;  // the one Python (ns.openPython) whose messages the page reads
    var runId = null, timer = null, runs = 0, asked = false;
    var lines = [{ stream: "stdout", text: "" }], dropped = 0, drawing = 0;

    var limit = DEFAULT_LIMIT_S, limitNote = "";
    if (params.has("limit")) {
      var wanted = Number(params.get("limit"));
      if (isFinite(wanted) && wanted >= 0.1 && wanted <= 600) limit = wanted;
      else limitNote = " (?limit= must be a number of seconds from 0.1 to 600: the limit stays " + DEFAULT_LIMIT_S + " s)";
    }

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
      var shared = /^#code=(.*)$/.exec(window.location.hash);
      if (!shared) return;
      try {
        if (!/^[A-Za-z0-9_-]*$/.test(shared[1])) throw new Error("not base64url");
        code.value = decode(shared[1]);
        say("Loaded the program from the link." + limitNote);
      } catch (error) {
        say("The link's program could not be read (the #code= part is damaged or cut short): the editor keeps what it had.");
      }
    }
    if (params.has("preset")) choose(params.get("preset"));
    if (limitNote) say(status.textContent + limitNote);
    fromHash();
    window.addEventListener("hashchange", function () { if (root.isConnected) fromHash(); });
    root.hidden = false;
    stopPrevious = function () { stopWorker(); };

    // Printed output: the latest MAX_LINES lines, drawn at most once per frame.
    function clearPrinted() { lines = [{ stream: "stdout", text: "" }]; dropped = 0; printed.textContent = ""; printed.hidden = true; }
    function addPrinted(chunks, more) {
      dropped += more;
      chunks.forEach(function (chunk) {
        var stream = chunk[0] === "stderr" ? "stderr" : "stdout";
        String(chunk[1]).split("\n").forEach(function (piece, i) {
          var last = lines[lines.length - 1];  // the open line (not ended by a newline yet), if any
          if (i === 0 && last && last.text === "") last.stream = stream;
          if (i === 0 && last && last.stream === stream) last.text += piece;
          else lines.push({ stream: stream, text: piece });
        });
      });
      if (lines.length > MAX_LINES + 1) { dropped += lines.length - MAX_LINES - 1; lines = lines.slice(lines.length - MAX_LINES - 1); }
      if (!drawing) drawing = window.requestAnimationFrame(drawPrinted);
    }
    function drawPrinted() {
      drawing = 0;
      var shown = lines[lines.length - 1].text === "" ? lines.slice(0, -1) : lines;
      var box = document.createDocumentFragment();
      if (dropped) {
        var note = document.createElement("span");
        note.className = "gg-pg-dropped";
        note.textContent = "… " + dropped.toLocaleString("en") + " earlier line" + (dropped === 1 ? "" : "s") + " not shown (the last " + MAX_LINES.toLocaleString("en") + " are below)\n";
        box.appendChild(note);
      }
      shown.forEach(function (line) {
        var span = document.createElement("span");
        if (line.stream === "stderr") span.className = "gg-pg-stderr";
        span.textContent = line.text + "\n";
        box.appendChild(span);
      });
      printed.textContent = "";
      printed.appendChild(box);
      printed.hidden = !shown.length && !dropped;
    }

    function stopWorker() {
      if (timer) window.clearTimeout(timer);
      timer = null;
      runId = null;
      if (session) session.close();
      session = null;
    }
    function startWorker() {
      var mine = ns.openPython(
        function (data) { if (session === mine) onMessage(data); },
        function (message) {
          if (session !== mine) return;
          stopWorker(); busy(false);
          say("Python could not start: " + message + ". Press Run to try again.");
        });
      session = mine;
      loadPurifier(base).catch(function () {});
      return mine;
    }
    function warm() {
      // The reader shows intent: fetch Python now, quietly, so that Run waits less.
      if (!session) { startWorker(); session.port.postMessage({ type: "load" }); }
    }
    function showError(text) {
      var box = document.createElement("div");
      box.className = "gg-pg-error";
      box.setAttribute("role", "alert");
      box.textContent = text;
      output.appendChild(box);
    }
    function show(result) {
      output.textContent = "";
      if (!result || typeof result !== "object") return showError("The run gave no result.");
      if (typeof result.error === "string") return showError(result.error);
      return loadPurifier(base).then(function (purify) {
        var summary = document.createElement("p");
        summary.className = "gg-pg-summary";
        summary.appendChild(fragment(purify, result.summary));
        output.appendChild(summary);
        ["figure", "order", "cards"].forEach(function (part) { output.appendChild(fragment(purify, result[part])); });
        if (window.glassgrad && window.glassgrad.players) window.glassgrad.players.initAll(output);
      });
    }
    function restart(text) {
      // A stopped program takes its Python with it: start a fresh one now, quietly, so the next Run is quick.
      stopWorker(); busy(false);
      say(text);
      asked = false;
      warm();
    }
    function onMessage(message) {
      if (!message || typeof message !== "object" || typeof message.type !== "string") return;
      var current = runId !== null && message.id === runId;
      if (message.type === "progress") { if (asked && typeof message.text === "string") say(message.text); }
      else if (message.type === "ready") { if (asked && typeof message.seconds === "number") say("Python is ready (loaded in " + message.seconds.toFixed(1) + " s)."); }
      else if (message.type === "running" && current && !timer) {
        say("Running… (stopped after " + limit + " s)");
        timer = window.setTimeout(function () {
          restart("Stopped: the program ran for more than " + limit + " s. Press Run to start again.");
        }, limit * 1000);
      } else if (message.type === "output" && current && Array.isArray(message.chunks)) {
        addPrinted(message.chunks.filter(Array.isArray), Math.max(0, Number(message.dropped) || 0));
      } else if (message.type === "result" && current) {
        if (timer) window.clearTimeout(timer);
        timer = null; runId = null;
        var result = message.result;
        Promise.resolve(show(result)).then(function () {
          busy(false);
          say(result && typeof result.error === "string" ? "The program stopped with an error (below)." : "Done: the graph, the backward pass and every Value's fields are below.");
        }, function () { busy(false); say("The result could not be shown."); });
      } else if (message.type === "failed") {  // only this worker's port says so: its Python is gone
        var text = typeof message.text === "string" ? message.text : "unknown error";
        var overflow = /call stack/i.test(text);
        restart(overflow
          ? "Python ran out of stack space and has been restarted: something was nested too deeply to free or print (a chain of many values dropped inside a function, for example; one kept in a global name is freed safely). Press Run to try again."
          : "Python could not start or run: " + text + ". Press Run to try again.");
      }
    }
    function run() {
      asked = true;
      if (!session) startWorker();
      busy(true);
      runs += 1;
      var bytes = new Uint8Array(16);
      window.crypto.getRandomValues(bytes);
      runId = Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
      clearPrinted();
      output.textContent = "";
      say("Starting Python…");
      session.port.postMessage({ type: "run", id: runId, code: code.value, prefix: "ggrun" + runs });
    }
    buttons.run.addEventListener("click", run);
    buttons.load.addEventListener("click", function () { asked = true; warm(); say("Loading Python…"); });
    buttons.stop.addEventListener("click", function () { restart("Stopped. Press Run to start again."); });
    buttons.reset.addEventListener("click", function () { choose(select.value); });
    buttons.link.addEventListener("click", function () {
      var url = window.location.href.split("#")[0] + "#code=" + encode(code.value);
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
  if (window.document$ && window.document$.subscribe) window.document$.subscribe(setUpAll);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUpAll);
  else setUpAll();
})();
