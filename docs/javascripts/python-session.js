// python-session.js: the one place in the page's JavaScript that runs Python (Pyodide, in python-worker.js).
// The Playground, the Exercises and the training lab use it; none of them talks to a worker itself.
//
//   var python = window.glassgrad.python;
//
//   python.limit, python.limitNote   the time limit in seconds (?limit=SECONDS in the address, 0.1 to 600,
//                                    default 10) and, if ?limit= was unusable, a sentence saying so.
//
//   var session = python.session();  Runs and Checks, one at a time. EVERY request runs in a Python no
//                                    earlier program touched: a fresh worker per request, terminated after
//                                    its answer; a spare one is started in the background after each
//                                    request, on warm(), and once a program has run for a second (it may
//                                    well be stopped), so the next request rarely waits.
//     session.warm(onStatus)         the reader shows intent: start the spare now. onStatus(text), optional,
//                                    hears its progress ("Downloading Python: 3.1 of 12.0 MB…", "Starting
//                                    Python…", "Python is ready (loaded in 4.2 s).").
//     session.run({code, prefix, exercise, reveal}, {onStatus, onOutput}) -> Promise of an outcome:
//                                    {result} (glassgrad_runtime's dict: {error} or {summary, figure, order,
//                                    cards}; for an exercise {passed, message, figure}: HTML strings to pass
//                                    through python.sanitize), or {message} when there is no result (stopped,
//                                    time limit, Python could not start or died), which says what happened.
//                                    onStatus(text) hears the phases (downloading, starting Python, running);
//                                    onOutput(chunks, dropped, droppedChars) the printed text, in batches,
//                                    with the lines and characters Python left out after them.
//                                    The time limit holds from this call: while Python loads (with its own
//                                    limit, LOAD_LIMIT_S), then `limit` seconds for the program.
//     session.stop()                 ends the current request (its outcome: {message: "Stopped…"}).
//     session.busy()                 whether a request is under way.
//     session.close()                ends everything (the page is left).
//
//   python.open({modules, onStatus}) -> Promise of a lab   LAB MODE, for a page's own Python code (never a
//                                    reader's program): one long-lived Python. modules: names to import from
//                                    the site's zip, or {name: source} to write and import.
//     lab.call("module.function", args, transfer) -> Promise of the value   one call at a time (a second
//                                    call while one is under way is refused), each under the time limit.
//                                    args: numbers, strings, arrays, plain objects, typed arrays (they
//                                    arrive through pyodide.toPy; list in `transfer` the ArrayBuffers to
//                                    move rather than copy). The value comes back through toJs (dicts as
//                                    objects; buffers as typed arrays, moved). A Python exception rejects
//                                    the call (the lab stays open); the time limit, or a Python that died,
//                                    rejects it and closes the lab (lab.closed): open a new one.
//     lab.busy(), lab.close()
//
//   python.sanitize(html, prefix) -> Promise of a DocumentFragment   the only way a worker's HTML reaches the
//                                    page; with `prefix` (the one sent with the request) every id must carry it.
//   python.printed(pre) -> {clear(), add(chunks, dropped, droppedChars)}   a console for printed output: the
//                                    last MAX_LINES lines (of a run's first MAX_CHARS characters, where
//                                    Python cuts it), drawn once per frame, with what was left out counted.
//
// Trust: nothing a worker says is trusted. Only a worker's private MessageChannel port is read, only while
// it serves the current request, and only messages with that request's random id; the page owns the time
// limit. HTML goes through DOMPurify (served by the site) and then through rules of our own (no style
// element, style attributes rebuilt from a short list of sizes, no data-gg-* attribute that drives the
// page except a player's own buttons), and lands inside a box marked data-gg-sandbox, where players look
// up their targets only inside their own figure (glassgrad.js).
(function () {
  "use strict";

  var ns = (window.glassgrad = window.glassgrad || {});
  if (ns.python) return;
  var script = document.currentScript;
  var scriptUrl = script ? script.src : window.location.href;
  var BASE = new URL("../assets/playground/", scriptUrl).href;
  var WORKER = new URL("python-worker.js", scriptUrl).href;
  var DEFAULT_LIMIT_S = 10;
  var LOAD_LIMIT_S = 120;  // downloading and starting Python, on a slow connection
  var MAX_LINES = 2000;
  var MAX_CHARS = 200000;
  var SPARE_AFTER_MS = 1000;

  function seconds(n) { return (Math.round(n * 10) / 10).toLocaleString("en") + " s"; }
  function megabytes(n) { return (n / 1e6).toFixed(1); }
  function randomId() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }

  // ?limit=SECONDS, read once.
  var python = { limit: DEFAULT_LIMIT_S, limitNote: "" };
  (function () {
    var params = new URLSearchParams(window.location.search);
    if (!params.has("limit")) return;
    var wanted = Number(params.get("limit"));
    if (params.get("limit").trim() !== "" && isFinite(wanted) && wanted >= 0.1 && wanted <= 600) python.limit = wanted;
    else python.limitNote = "?limit= must be a number of seconds from 0.1 to 600: the limit stays " + DEFAULT_LIMIT_S + " s.";
  })();

  // One worker: its state (loading, ready, failed) and the one listener its messages go to.
  function startPython() {
    var worker = new Worker(WORKER, { type: "module" });
    var channel = new MessageChannel();
    var py = { phase: "download", loaded: 0, total: 0, ready: false, failed: null, closed: false, busy: false, listener: null };
    function deliver(message) {
      if (py.closed || !message || typeof message !== "object") return;
      if (message.type === "progress") {
        py.phase = message.phase === "start" ? "start" : "download";
        py.loaded = Number(message.loaded) || 0;
        py.total = Number(message.total) || 0;
      } else if (message.type === "ready") {
        py.ready = true;
        py.seconds = Number(message.seconds) || 0;
      } else if (message.type === "failed" && !py.ready) py.failed = message;
      if (py.listener) py.listener(message);
    }
    channel.port1.onmessage = function (event) { deliver(event.data); };
    worker.onerror = function (event) {
      event.preventDefault();
      // Once a program has been sent, an error here is the program's (the time limit covers the rest).
      if (!py.busy) deliver({ type: "failed", id: "", text: event.message || "the worker could not start" });
    };
    worker.postMessage({ type: "connect", base: BASE }, [channel.port2]);
    py.post = function (message, transfer) { py.busy = true; channel.port1.postMessage(message, transfer || []); };
    py.close = function () {
      py.closed = true;
      py.listener = null;
      channel.port1.onmessage = null;
      channel.port1.close();
      worker.onerror = null;
      worker.terminate();
    };
    return py;
  }

  function loadingText(py) {
    if (py.ready) return "Python is ready (loaded in " + seconds(py.seconds) + ").";
    if (py.phase === "start") return "Starting Python…";
    return py.total ? "Downloading Python: " + megabytes(py.loaded) + " of " + megabytes(py.total) + " MB…" : "Downloading Python…";
  }
  function diedText(failed, again) {
    if (failed.overflow) {
      return "Python ran out of stack space and was restarted: something was nested too deeply to free or print " +
        "(a chain of many values dropped inside a function, for example; one kept in a global name is freed safely). " +
        "Press " + again + " to try again.";
    }
    return "Python stopped with a fatal error (" + String(failed.text || "unknown") + ") and was restarted. Press " + again + " to try again.";
  }

  python.session = function () {
    var spare = null, current = null, closed = false, watcher = null;

    function takeSpare() {
      var py = spare && !spare.failed ? spare : startPython();
      if (spare && spare !== py) spare.close();
      spare = null;
      return py;
    }
    function startSpare() {
      if (closed || (spare && !spare.failed)) return;
      if (spare) spare.close();  // one that could not load: try afresh
      spare = startPython();
      spare.listener = function (message) {
        if (message.type === "failed") { if (watcher) watcher("Python could not start: " + String(message.text) + "."); watcher = null; return; }
        if (watcher && (message.type === "progress" || message.type === "ready")) watcher(loadingText(spare));
        if (message.type === "ready") watcher = null;
      };
    }
    function finish(request, outcome) {
      if (current !== request) return;
      current = null;
      window.clearTimeout(request.timer);
      request.py.close();  // used once: its Python goes with it
      if (!request.py.failed || request.py.ready) startSpare();  // (a Python that cannot load would fail again)
      else if (spare) { spare.close(); spare = null; }
      request.resolve(outcome);
    }
    function arm(request, limit, text) {
      window.clearTimeout(request.timer);
      request.timer = window.setTimeout(function () { finish(request, { message: text }); }, limit * 1000);
    }

    return {
      warm: function (onStatus) {
        startSpare();
        if (!onStatus) return;
        watcher = spare.ready ? null : onStatus;
        onStatus(loadingText(spare));
      },
      busy: function () { return current !== null; },
      stop: function () {
        if (current) finish(current, { message: "Stopped. Press " + current.again + " to start again." });
      },
      close: function () {
        closed = true;
        if (current) finish(current, { message: "Stopped." });
        if (spare) spare.close();
        spare = null;
      },
      run: function (what, callbacks) {
        callbacks = callbacks || {};
        var say = callbacks.onStatus || function () {};
        var check = typeof what.exercise === "string";
        var request = { id: randomId(), again: check ? "Check" : "Run", timer: 0 };
        var thing = check ? "check" : "program";
        if (current) finish(current, { message: "Stopped: another request began." });
        watcher = null;
        request.py = takeSpare();
        current = request;
        return new Promise(function (resolve) {
          request.resolve = resolve;
          var py = request.py;
          var running = (check ? "Checking" : "Running") + "… (stopped after " + seconds(python.limit) + ")";
          // The clock starts now: Python's loading under its own limit, then the program's.
          if (py.ready) arm(request, python.limit, "Stopped: the " + thing + " ran for more than " + seconds(python.limit) + ". Press " + request.again + " to start again.");
          else arm(request, LOAD_LIMIT_S, "Python did not start within " + seconds(LOAD_LIMIT_S) + " (the download may have stalled). Press " + request.again + " to try again.");
          py.listener = function (message) {
            if (current !== request) return;
            var mine = message.id === request.id;
            if (message.type === "progress") say(loadingText(py));
            else if (message.type === "ready") {
              arm(request, python.limit, "Stopped: the " + thing + " ran for more than " + seconds(python.limit) + ". Press " + request.again + " to start again.");
            } else if (message.type === "running" && mine) {
              request.running = true;
              say(running);
              // A program still running after a second may well be stopped: its successor starts loading now.
              window.setTimeout(function () { if (current === request) startSpare(); }, SPARE_AFTER_MS);
            } else if (message.type === "output" && mine && Array.isArray(message.chunks)) {
              if (callbacks.onOutput) callbacks.onOutput(message.chunks.filter(Array.isArray), Math.max(0, Number(message.dropped) || 0), Math.max(0, Number(message.droppedChars) || 0));
            } else if (message.type === "result" && mine) {
              finish(request, { result: message.result && typeof message.result === "object" ? message.result : { error: "The " + thing + " gave no answer." } });
            } else if (message.type === "failed" && (mine || message.id === "")) {
              finish(request, { message: py.ready ? diedText(message, request.again) : "Python could not start: " + String(message.text) + ". Press " + request.again + " to try again." });
            }
          };
          say(py.ready ? running : loadingText(py));
          py.post({ type: "run", id: request.id, code: String(what.code), prefix: String(what.prefix || "ggrun"), exercise: check ? what.exercise : null, reveal: what.reveal === true });
        });
      },
    };
  };

  python.open = function (options) {
    options = options || {};
    var py = startPython(), pending = null;
    var lab = { closed: false };
    function settle(ok, value) {
      var call = pending;
      pending = null;
      if (!call) return;
      window.clearTimeout(call.timer);
      if (ok) call.resolve(value); else call.reject(value instanceof Error ? value : new Error(String(value)));
    }
    lab.close = function () {
      lab.closed = true;
      py.close();
      settle(false, new Error("The lab's Python was closed."));
    };
    lab.busy = function () { return pending !== null; };
    function request(message, transfer, limit, late) {
      if (lab.closed) return Promise.reject(new Error("The lab's Python was closed: open a new one."));
      if (pending) return Promise.reject(new Error("One call at a time: wait for the one under way."));
      return new Promise(function (resolve, reject) {
        pending = { id: randomId(), resolve: resolve, reject: reject };
        pending.timer = window.setTimeout(function () {
          settle(false, new Error(late));
          lab.close();
        }, limit * 1000);
        message.id = pending.id;
        py.post(message, transfer);
      });
    }
    py.listener = function (message) {
      if (message.type === "progress" && options.onStatus) options.onStatus(loadingText(py));
      else if (message.type === "ready" && options.onStatus) options.onStatus(loadingText(py));
      else if (message.type === "returned" && pending && message.id === pending.id) settle(true, message.value);
      else if (message.type === "failed" && pending && (message.id === pending.id || message.id === "")) {
        var died = !py.ready || message.overflow;
        if (died) { lab.closed = true; py.close(); }
        settle(false, new Error(py.ready ? (died ? diedText(message, "open") : String(message.text)) : "Python could not start: " + String(message.text)));
      }
    };
    lab.call = function (name, args, transfer) {
      return request({ type: "call", name: String(name), args: args || [] }, transfer, python.limit,
        "Stopped: " + String(name) + " ran for more than " + seconds(python.limit) + "; the lab's Python was closed.");
    };
    return request({ type: "open", modules: options.modules || [] }, [], LOAD_LIMIT_S,
      "Python did not start within " + seconds(LOAD_LIMIT_S) + ".").then(function () { return lab; });
  };

  // Printed output in a <pre>: the latest MAX_LINES lines and MAX_CHARS characters, drawn at most once per frame.
  // What the page leaves out is the earliest (noted on top); what Python left out, past its cap, the latest.
  python.printed = function (pre) {
    var lines, earlier, chars, later, drawing = 0;
    function clear() {
      lines = [{ stream: "stdout", text: "" }]; earlier = { lines: 0, chars: 0 }; later = { lines: 0, chars: 0 }; chars = 0;
      pre.textContent = ""; pre.hidden = true;
    }
    function trim() {
      if (lines.length > MAX_LINES + 1) {
        var gone = lines.splice(0, lines.length - MAX_LINES - 1);
        earlier.lines += gone.length;
        gone.forEach(function (line) { chars -= line.text.length; });
      }
      while (chars > MAX_CHARS) {  // the earliest lines go, and of the earliest line kept, its start
        var first = lines[0], excess = chars - MAX_CHARS;
        if (first.text.length > excess || lines.length === 1) {
          first.text = first.text.slice(excess); chars -= excess; earlier.chars += excess;
        } else {
          lines.shift(); earlier.lines += 1; chars -= first.text.length;
        }
      }
    }
    function add(chunks, moreLines, moreChars) {
      later.lines += moreLines || 0;
      later.chars += moreChars || 0;
      chunks.forEach(function (chunk) {
        var stream = chunk[0] === "stderr" ? "stderr" : "stdout";
        String(chunk[1]).split("\n").forEach(function (piece, i) {
          var last = lines[lines.length - 1];  // the open line (not ended by a newline yet)
          if (i === 0 && last.text === "") last.stream = stream;
          if (i === 0 && last.stream === stream) last.text += piece;
          else lines.push({ stream: stream, text: piece });
          chars += piece.length;
        });
        trim();
      });
      if (!drawing) drawing = window.requestAnimationFrame(draw);
    }
    function count(left) {
      var parts = [];
      if (left.lines) parts.push(left.lines.toLocaleString("en") + " " + (left === later ? "more " : "earlier ") + "line" + (left.lines === 1 ? "" : "s"));
      if (left.chars) parts.push(left.chars.toLocaleString("en") + " character" + (left.chars === 1 ? "" : "s"));
      return parts.join(" and ");
    }
    function note(text) {
      var span = document.createElement("span");
      span.className = "gg-pg-dropped";
      span.textContent = text + "\n";
      return span;
    }
    function draw() {
      drawing = 0;
      var shown = lines[lines.length - 1].text === "" ? lines.slice(0, -1) : lines;
      var box = document.createDocumentFragment();
      if (earlier.lines || earlier.chars) box.appendChild(note("… " + count(earlier) + " not shown (the last " + MAX_LINES.toLocaleString("en") + " lines are kept)"));
      shown.forEach(function (line) {
        var span = document.createElement("span");
        if (line.stream === "stderr") span.className = "gg-pg-stderr";
        span.textContent = line.text + "\n";
        box.appendChild(span);
      });
      if (later.lines || later.chars) box.appendChild(note("… " + count(later) + " not shown (a program's output stops at " + MAX_CHARS.toLocaleString("en") + " characters)"));
      var empty = !box.childNodes.length;  // (read before appending: a fragment empties into its parent)
      pre.textContent = "";
      pre.appendChild(box);
      pre.hidden = empty;
    }
    clear();
    return { clear: clear, add: add };
  };

  // The worker's HTML: DOMPurify (HTML and SVG profiles; nothing that loads from elsewhere), then our rules.
  var PURIFY = {
    USE_PROFILES: { html: true, svg: true },
    FORBID_TAGS: ["style", "img", "image", "use", "a", "form", "iframe", "object", "embed", "video", "audio", "source", "picture", "link", "meta", "base", "foreignObject", "script", "template", "slot"],
    FORBID_ATTR: ["href", "xlink:href", "src", "srcset", "action", "formaction", "background", "ping", "id-ref", "is"],
  };
  // The only data-gg-* attributes kept, with the values they may hold: each styles its element or drives
  // its own player (glassgrad.js confines the player to its figure); none reaches beyond the output box.
  var ID = /^[A-Za-z][\w-]{0,200}$/;
  var owner = "";  // while sanitizing: the prefix every id must carry (the page chose it for this run)
  var OWN_ID = { test: function (id) { return ID.test(id) && (!owner || id === owner || id.indexOf(owner + "-") === 0); } };
  var KEPT_DATA = {
    "data-gg-action": /^(reset|back|forward|end|play|fullscreen)$/,
    "data-gg-edge": OWN_ID, "data-gg-op": OWN_ID, "data-gg-output-node": OWN_ID, "data-gg-parent-node": OWN_ID,
    "data-gg-role": /^[\w -]{0,60}$/, "data-gg-wrong": /^(true|false)$/, "data-gg-label": /^[^<>]{0,200}$/,
    "data-gg-index": /^\d{1,6}$/, "data-gg-step": /^\d{1,6}$/, "data-gg-player": /^[\w-]{1,30}$/,
    "data-gg-rankdir": /^(LR|TB)$/, "data-gg-prefix": ID,
  };
  // Style attributes are rebuilt from sizes only (the figures' widths, scroll boxes and grids).
  var SIZE = /^(auto|0|-?\d+(\.\d+)?(px|%|em|rem|fr))$/;
  var STYLES = {
    "width": SIZE, "height": SIZE, "min-width": SIZE, "max-width": SIZE, "overflow-x": /^(auto|hidden|visible)$/,
    "grid-template-columns": /^((minmax\(\d+(\.\d+)?px, ?\d+(\.\d+)?fr\)|\d+(\.\d+)?(px|fr|%)|auto) ?){1,12}$/,
    "grid-template-rows": /^(repeat\(\d{1,2}, ?auto\)|auto)$/,
    "--gg-player-graph": SIZE, "--gg-beside-graph": SIZE,  // a graph's column: as wide as it is shown at most
  };
  function rebuiltStyle(text) {
    var kept = [];
    String(text).split(";").forEach(function (declaration) {
      var colon = declaration.indexOf(":");
      if (colon < 0) return;
      var name = declaration.slice(0, colon).trim().toLowerCase(), value = declaration.slice(colon + 1).trim();
      if (Object.prototype.hasOwnProperty.call(STYLES, name) && STYLES[name].test(value)) kept.push(name + ":" + value);
    });
    return kept.join(";");
  }
  var purifier = null;
  function loadPurifier() {
    if (!purifier) {
      purifier = import(BASE + "dompurify/purify.es.mjs").then(function (module) {
        var purify = module.default;
        purify.addHook("uponSanitizeAttribute", function (node, data) {
          var name = data.attrName;
          if (name === "style") {
            data.attrValue = rebuiltStyle(data.attrValue);
            if (!data.attrValue) data.keepAttr = false;
          } else if (name.indexOf("data-") === 0) {
            var rule = Object.prototype.hasOwnProperty.call(KEPT_DATA, name) ? KEPT_DATA[name] : null;
            if (!rule || !rule.test(data.attrValue)) data.keepAttr = false;
          } else if (name === "id" && !OWN_ID.test(data.attrValue)) data.keepAttr = false;
        });
        return purify;
      });
    }
    return purifier;
  }

  // A player's frames ride in <script class="gg-frames"> (JSON), which DOMPurify removes: they are read first,
  // checked (ids of the strict pattern, marks of class names, texts sanitized), and put back as inert JSON.
  function cleanFrames(purify, text) {
    var parsed = JSON.parse(text), frames = [];
    if (!parsed || !Array.isArray(parsed.frames)) return null;
    parsed.frames.slice(0, 5000).forEach(function (frame) {
      if (!frame || typeof frame !== "object") return;
      var clean = { marks: {}, texts: {}, label: String(frame.label || ""), text: String(frame.text || ""), focus: OWN_ID.test(String(frame.focus || "")) ? String(frame.focus) : "" };
      Object.keys(frame.marks || {}).forEach(function (id) { if (OWN_ID.test(id)) clean.marks[id] = String(frame.marks[id]).replace(/[^\w -]/g, ""); });
      Object.keys(frame.texts || {}).forEach(function (id) { if (OWN_ID.test(id)) clean.texts[id] = purify.sanitize(String(frame.texts[id]), PURIFY); });
      frames.push(clean);
    });
    return frames.length ? { frames: frames } : null;
  }
  python.sanitize = function (html, prefix) {
    return loadPurifier().then(function (purify) {
      owner = ID.test(String(prefix || "")) ? String(prefix) : "";
      var parsed = new DOMParser().parseFromString("<body>" + String(html), "text/html");  // inert: nothing runs
      var frames = [];
      parsed.querySelectorAll("[data-gg-frames-slot]").forEach(function (el) { el.removeAttribute("data-gg-frames-slot"); });
      parsed.querySelectorAll("script.gg-frames").forEach(function (holder) {
        var player = holder.closest(".gg-player"), clean = null;
        try { clean = cleanFrames(purify, holder.textContent); } catch (error) { clean = null; }
        if (player && clean) { player.setAttribute("data-gg-frames-slot", String(frames.length)); frames.push(clean); }
      });
      KEPT_DATA["data-gg-frames-slot"] = /^\d+$/;  // only while our own marks are read back
      var safe;
      try {
        safe = purify.sanitize(parsed.body.innerHTML, Object.assign({ RETURN_DOM_FRAGMENT: true }, PURIFY));  // sanitized
      } finally {
        delete KEPT_DATA["data-gg-frames-slot"];
        owner = "";
      }
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
    });
  };
  python.preload = loadPurifier;

  ns.python = python;
})();
