// The training lab (docs/lab.md): the real glassgrad trains in the page's own long-lived Python
// (python-session.js, lab mode), one call of glassgrad_site.lab.page.step per training step, looped from here,
// so Pause waits at most for the step under way. Everything drawn is drawn here from plain numbers:
// the heat map by a forward pass over the weights (the same additions in the same order as
// glassgrad.nn's weighted_sum, so the same bits), the curves, the table. The inspected graph is the one
// HTML that comes from Python: it goes through python.sanitize, is drawn once, and then only its numbers
// change (by element id, as text).
(function () {
  "use strict";

  var ns = (window.glassgrad = window.glassgrad || {});
  var MODULE = "glassgrad_site.lab.page";
  var GRID = 100;  // heat-map cells per side, at most
  var BUDGET = 1.5e6;  // multiply-adds per heat-map refresh: about 5 ms of main thread (a bigger model gets fewer cells)
  var PREFIX = "lab-graph";  // the inspected figure's id prefix (glassgrad_site.lab.page.PREFIX)
  var BLUE = [37, 99, 235], ORANGE = [234, 88, 12];
  var DEFAULTS = { data: "moons", size: 100, noise: 0.1, seed: 0, layers: [8, 8], loss: "hinge", l2: 0.0001, rate: 0.5, decay: 0, batch: 100, added: [], removed: [] };
  var closeCurrent = null;

  function own(object, key) { return Object.prototype.hasOwnProperty.call(object, key); }
  function fixed(x, digits) { return x === null || x === undefined ? "—" : Number(x).toFixed(digits); }
  function short(x) {
    if (x === 0) return "0";
    var a = Math.abs(x);
    return a >= 1e-3 && a < 1e4 ? Number(x.toPrecision(4)).toString() : x.toExponential(2);
  }

  // --- the state in the address: #data=moons&size=100&...&add=x,y,c;...&remove=3,7 ---------------------
  function readHash() {
    var settings = JSON.parse(JSON.stringify(DEFAULTS));
    var params = new URLSearchParams(window.location.hash.replace(/^#/, ""));
    ["data", "loss"].forEach(function (key) { if (params.has(key)) settings[key] = params.get(key); });
    ["size", "noise", "seed", "l2", "rate", "decay", "batch"].forEach(function (key) {
      if (params.has(key) && params.get(key) !== "" && isFinite(Number(params.get(key)))) settings[key] = Number(params.get(key));
    });
    if (params.has("layers")) settings.layers = parseLayers(params.get("layers")) || DEFAULTS.layers;
    if (params.has("add")) {
      settings.added = params.get("add").split(";").map(function (item) { return item.split(",").map(Number); })
        .filter(function (p) { return p.length === 3 && isFinite(p[0]) && isFinite(p[1]) && (p[2] === 1 || p[2] === -1); });
    }
    if (params.has("remove")) {
      settings.removed = params.get("remove").split(",").map(Number).filter(function (i) { return Number.isInteger(i) && i >= 0; });
    }
    return settings;
  }
  function writeHash(settings) {
    var params = new URLSearchParams();
    ["data", "size", "noise", "seed", "loss", "l2", "rate", "decay", "batch"].forEach(function (key) { params.set(key, String(settings[key])); });
    params.set("layers", settings.layers.join(","));
    if (settings.added.length) params.set("add", settings.added.map(function (p) { return p[0] + "," + p[1] + "," + p[2]; }).join(";"));
    if (settings.removed.length) params.set("remove", settings.removed.join(","));
    var url = window.location.href.split("#")[0] + "#" + params.toString();
    window.history.replaceState(window.history.state, "", url);
  }
  function parseLayers(text) {
    var widths = String(text).split(/[\s,]+/).filter(Boolean).map(Number);
    if (widths.length > 4 || !widths.every(function (w) { return Number.isInteger(w) && w >= 1 && w <= 32; })) return null;
    return widths;
  }

  // --- the model's forward pass on plain numbers: glassgrad.nn.Module.evaluate, in JavaScript -------------
  // weights: layer by layer, neuron by neuron, its weights then its bias (glassgrad_site.lab.page.weights).
  function forward(sizes, weights, x1, x2, hidden) {
    var input = hidden[0], output;
    input[0] = x1; input[1] = x2;
    var k = 0;
    for (var layer = 1; layer < sizes.length; layer++) {
      var fanIn = sizes[layer - 1], last = layer === sizes.length - 1;
      output = hidden[layer];
      for (var j = 0; j < sizes[layer]; j++) {
        var total = weights[k + fanIn];  // the bias first, then each product, as weighted_sum adds them
        for (var i = 0; i < fanIn; i++) total += weights[k + i] * input[i];
        k += fanIn + 1;
        output[j] = last ? total : (total < 0 ? 0 : total);  // ReLU keeps -0 and NaN, as glassgrad's does
      }
      input = output;
    }
    return output[0];
  }
  function buffers(sizes) { return sizes.map(function (n) { return new Float64Array(n); }); }

  function setUp(root) {
    root.dataset.ggReady = "1";
    root.hidden = false;
    var python = ns.python;
    var $ = function (name) { return root.querySelector('[data-lab="' + name + '"]'); };
    var buttons = {};
    root.querySelectorAll("[data-lab-do]").forEach(function (b) { buttons[b.dataset.labDo] = b; });
    var inputs = {};
    root.querySelectorAll("[data-lab-set]").forEach(function (el) { inputs[el.dataset.labSet] = el; });
    var status = $("status"), plane = $("plane");
    var settings = readHash();
    var lab = null, opening = null, closed = false;
    var running = false, inFlight = false, stopAt = 0;
    var run = null;  // what start() returned, then updated by each step
    var history = [];  // per step: [step, train loss, test loss, train accuracy, test accuracy]
    var losses = [];  // every step's loss, as Python computed it
    var inspected = -1, figureShown = false, preparedShape = "";
    var drawnView = null;  // the drawn graph's view: true, a node per neuron; false, every Value
    var cross = [0.5, 0.5];  // the keyboard's cross on the plane, as shares of its width and height
    function neurons() { return !$("every-value").checked; }
    var hidden = null;
    var timings = { steps: [], heat: [], python: [] };
    var probe = { grid: null, scores: null };

    function say(text) { status.textContent = text; }
    function showSettings() {
      ["data", "size", "noise", "seed", "loss", "l2", "rate", "decay", "batch"].forEach(function (key) { inputs[key].value = String(settings[key]); });
      inputs.layers.value = settings.layers.join(", ");
    }
    showSettings();

    // --- Python --------------------------------------------------------------------------------------
    function ensureLab() {
      if (lab && !lab.closed) return Promise.resolve(lab);
      if (opening) return opening;
      if (!python || !python.open) return Promise.reject(new Error("the page's Python module did not load"));
      opening = python.open({ modules: [MODULE], onStatus: say }).then(function (opened) {
        opening = null;
        if (closed) { opened.close(); throw new Error("left the page"); }
        lab = opened;
        return call("start", [settings]).then(started);
      }, function (error) { opening = null; throw error; });
      return opening;
    }
    var chain = Promise.resolve();  // the lab's Python takes one call at a time: calls wait in line
    function call(name, args) {
      var answer = chain.then(function () { return lab.call(MODULE + "." + name, args || []); });
      chain = answer.catch(function () {});
      return answer;
    }
    function failed(error) {
      running = false; inFlight = false;
      busy();
      say("Python stopped: " + (error && error.message ? error.message : String(error)) + " Press Train or Step to start it again.");
      if (lab && lab.closed) lab = null;
    }

    // --- a run ------------------------------------------------------------------------------------------
    function started(state) {
      run = state;
      settings = state.settings;
      showSettings();
      writeHash(settings);
      hidden = buffers(state.sizes);
      grid = gridSize(state.sizes);
      history = [];
      losses = [];
      closeInspect();
      fillTable(true);
      drawAll();
      say("step 0 · the network starts from random weights (seed " + settings.seed + "): press Train or Step.");
      window.setTimeout(prepare, 1000);
      return lab;
    }
    // Lay out the inspected graph (Graphviz: a second or two of Python) while the lab is idle, once per shape of
    // model and loss, so that Inspect is quick; never between two training steps, which it would hold up.
    function prepare() {
      var view = neurons(), shape = settings.layers.join(",") + "|" + settings.loss + "|" + view;
      if (shape === preparedShape || running || inFlight || !lab) return;
      preparedShape = shape;
      call("prepare", [view]).catch(function () { preparedShape = ""; });
    }
    function restart() {
      pause();
      if (!lab) { writeHash(settings); return Promise.resolve(); }
      return call("start", [settings]).then(started, failed);
    }
    function apply(state) {
      Object.keys(state).forEach(function (key) { run[key] = state[key]; });
      losses = losses.concat(state.losses);
      history.push([state.step, state.train_loss, state.test_loss, state.train_accuracy, state.test_accuracy]);
      timings.python.push(state.seconds * 1000);
      say("step " + state.step + " · loss " + fixed(state.loss, 4) + " · accuracy " + Math.round(state.train_accuracy * 100) + "% (test " + Math.round(state.test_accuracy * 100) + "%)");
      if (state.numbers) rewriteNumbers(state.numbers);
      drawAll();
    }
    function oneStep() {
      inFlight = true;
      var t0 = performance.now();
      return call("step", [1, figureShown ? inspected : -1, drawnView !== false]).then(function (state) {
        inFlight = false;
        timings.steps.push(performance.now() - t0);
        apply(state);
      }, function (error) { inFlight = false; throw error; });
    }
    function loop() {
      if (!running) return;
      if (stopAt && run.step >= stopAt) { pause(); say(status.textContent + " · stopped after " + stopAt + " steps"); return; }
      oneStep().then(function () {
        if (running) window.requestAnimationFrame(loop);  // the frame's drawing first, then the next step
        else paused();
      }, failed);
    }
    function train() {
      if (running) { pause(); return; }
      readStop();
      running = true;
      busy();
      if (figureShown) dropPlayer();
      ensureLab().then(function () { if (!inFlight) loop(); }, failed);
    }
    function pause() {
      if (!running) return;
      running = false;  // the step under way finishes; none starts after it
      busy();
      if (!inFlight) paused();
    }
    function paused() {
      busy();
      prepare();
      if (figureShown && inspected >= 0) inspect(inspected);  // a fresh replay of the example's backward pass
    }
    function step() {
      if (running || inFlight) return;
      ensureLab().then(oneStep).then(function () { if (figureShown) inspect(inspected); }, failed);
    }
    function busy() {
      buttons.train.textContent = running ? "Pause" : "Train";
      buttons.train.setAttribute("aria-pressed", running ? "true" : "false");
      buttons.step.disabled = running;
    }
    function readStop() {
      var n = Number(inputs.stop.value);
      stopAt = Number.isInteger(n) && n > 0 ? n : 0;
    }

    // --- drawing ------------------------------------------------------------------------------------------
    var frameAsked = 0;
    function drawAll() {
      if (frameAsked) return;
      frameAsked = window.requestAnimationFrame(function () {
        frameAsked = 0;
        var t0 = performance.now();
        drawPlane();
        timings.heat.push(performance.now() - t0);
        drawCurves();
        fillTable(false);
      });
    }
    function sized(canvas) {
      var ratio = window.devicePixelRatio || 1, width = canvas.clientWidth || canvas.width, height = canvas.clientHeight || canvas.height;
      if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
        canvas.width = Math.round(width * ratio);
        canvas.height = Math.round(height * ratio);
      }
      var context = canvas.getContext("2d");
      context.setTransform(ratio, 0, 0, ratio, 0, 0);
      return { context: context, width: width, height: height };
    }
    var cells = document.createElement("canvas"), grid = GRID;
    function gridSize(sizes) {
      var work = 0;
      for (var k = 1; k < sizes.length; k++) work += sizes[k - 1] * sizes[k];
      return Math.max(20, Math.min(GRID, Math.floor(Math.sqrt(BUDGET / work))));
    }
    function gridPoint(view, i, j) {  // the centre of cell (i, j): column i from the left, row j from the top
      return [view[0] + (i + 0.5) * (view[1] - view[0]) / grid, view[3] - (j + 0.5) * (view[3] - view[2]) / grid];
    }
    function heatMap() {
      if (cells.width !== grid) { cells.width = grid; cells.height = grid; }
      var view = run.view, image = cells.getContext("2d").createImageData(grid, grid), pixels = image.data;
      var weights = run.weights, sizes = run.sizes;
      var scores = new Float64Array(grid * grid);
      for (var j = 0; j < grid; j++) {
        for (var i = 0; i < grid; i++) {
          var p = gridPoint(view, i, j);
          var s = forward(sizes, weights, p[0], p[1], hidden);
          scores[j * grid + i] = s;
          var t = Math.max(-1, Math.min(1, s / 1.5)), colour = t < 0 ? BLUE : ORANGE, o = 4 * (j * grid + i);
          pixels[o] = colour[0]; pixels[o + 1] = colour[1]; pixels[o + 2] = colour[2];
          pixels[o + 3] = Math.round(40 + 120 * Math.abs(t));
        }
      }
      cells.getContext("2d").putImageData(image, 0, 0);
      probe.scores = scores;
      return scores;
    }
    function toCanvas(view, box, x1, x2) {
      return [(x1 - view[0]) / (view[1] - view[0]) * box.width, (view[3] - x2) / (view[3] - view[2]) * box.height];
    }
    function drawPlane() {
      var box = sized(plane), c = box.context;
      c.clearRect(0, 0, box.width, box.height);
      if (!run) return;
      var view = run.view;
      heatMap();
      c.imageSmoothingEnabled = true;
      c.drawImage(cells, 0, 0, box.width, box.height);
      var ink = getComputedStyle(root).getPropertyValue("--md-default-fg-color") || "#000";
      function dot(point, label, filled, ring) {
        var at = toCanvas(view, box, point[0], point[1]);
        c.beginPath();
        c.arc(at[0], at[1], ring ? 7 : 4, 0, 2 * Math.PI);
        var colour = "rgb(" + (label < 0 ? BLUE : ORANGE).join(",") + ")";
        if (filled) { c.fillStyle = colour; c.fill(); c.lineWidth = 1; c.strokeStyle = "#fff"; c.stroke(); }
        else { c.lineWidth = ring ? 2.5 : 1.5; c.strokeStyle = ring ? ink : colour; c.stroke(); }
      }
      run.test_points.forEach(function (p, k) { dot(p, run.test_labels[k], false, false); });
      run.points.forEach(function (p, k) { dot(p, run.labels[k], true, false); });
      if (figureShown && inspected >= 0 && run.points[inspected]) dot(run.points[inspected], 0, false, true);
      if (document.activeElement === plane) {  // the keyboard's cross, where Enter acts
        var cx = cross[0] * box.width, cy = cross[1] * box.height;
        var paper = getComputedStyle(root).getPropertyValue("--md-default-bg-color") || "#fff";
        c.beginPath();
        c.moveTo(cx - 12, cy); c.lineTo(cx + 12, cy); c.moveTo(cx, cy - 12); c.lineTo(cx, cy + 12);
        [[paper, 5], [ink, 2]].forEach(function (pen) { c.lineWidth = pen[1]; c.strokeStyle = pen[0]; c.stroke(); });
      }
    }
    function drawCurves() {
      curve($("loss-curve"), 1, 2, false);
      curve($("accuracy-curve"), 3, 4, true);
    }
    function curve(canvas, train, test, share) {
      var box = sized(canvas), c = box.context, pad = 28;
      c.clearRect(0, 0, box.width, box.height);
      var style = getComputedStyle(root);
      var ink = style.getPropertyValue("--md-default-fg-color--light") || "#666";
      var top = share ? 1 : 0;
      history.forEach(function (row) { if (!share) top = Math.max(top, row[train], row[test]); });
      top = top || 1;
      c.strokeStyle = ink; c.fillStyle = ink; c.lineWidth = 1; c.font = "11px sans-serif";
      c.beginPath(); c.moveTo(pad, 4); c.lineTo(pad, box.height - 16); c.lineTo(box.width - 4, box.height - 16); c.stroke();
      c.textBaseline = "top";
      c.fillText(share ? "100%" : String(Number(top.toPrecision(2))), 0, 2);
      c.textBaseline = "alphabetic";
      c.fillText("0", pad - 10, box.height - 18);
      var steps = history.length ? history[history.length - 1][0] : 0;
      c.fillText("step " + steps, box.width - 60, box.height - 3);
      var accent = style.getPropertyValue("--md-accent-fg-color") || "#009485";
      [[train, style.getPropertyValue("--md-default-fg-color") || "#000", []], [test, accent, [5, 3]]].forEach(function (line) {
        c.beginPath(); c.strokeStyle = line[1]; c.lineWidth = 2; c.setLineDash(line[2]);
        var stride = Math.max(1, Math.ceil(history.length / box.width));  // at most a point per pixel
        for (var k = 0; k < history.length; k += stride) {
          var x = pad + (history.length < 2 ? 0 : k / (history.length - 1)) * (box.width - pad - 6);
          var y = 4 + (1 - history[k][line[0]] / top) * (box.height - 22);
          if (k) c.lineTo(x, y); else c.moveTo(x, y);
        }
        c.stroke();
      });
      c.setLineDash([]);
    }

    // --- the parameter table (drawn while it is open) ------------------------------------------------------
    var rows = [];
    function fillTable(rebuild) {
      var body = $("param-rows");
      if (!run) return;
      if (rebuild || rows.length !== run.names.length) {
        body.textContent = "";
        rows = run.names.map(function (name) {
          var tr = document.createElement("tr"), cells = [];
          var th = document.createElement("th");
          th.scope = "row"; th.textContent = name; tr.appendChild(th);
          for (var k = 0; k < 3; k++) { var td = document.createElement("td"); tr.appendChild(td); cells.push(td); }
          body.appendChild(tr);
          return cells;
        });
      }
      if (!$("params").open) return;
      rows.forEach(function (cells, k) {
        cells[0].textContent = short(run.weights[k]);
        cells[1].textContent = short(run.grads[k]);
        cells[2].textContent = short(run.updates[k]);
      });
    }
    $("params").addEventListener("toggle", function () { fillTable(false); });

    // --- Inspect ---------------------------------------------------------------------------------------------
    var panel = $("inspect");
    function closeInspect() {
      panel.hidden = true;
      $("graph").textContent = "";
      $("player").textContent = "";
      $("gradcheck-text").textContent = "";
      figureShown = false;
      drawnView = null;
      inspected = -1;
    }
    function dropPlayer() {
      $("player").textContent = "";
      panel.querySelectorAll(".gg-active, .gg-current, .gg-appended").forEach(function (el) {
        el.classList.remove("gg-active", "gg-current", "gg-appended");
      });
    }
    function rewriteNumbers(numbers) {
      var figure = $("graph");
      Object.keys(numbers).forEach(function (id) {
        var text = String(numbers[id]), match;
        if ((match = /^(.*-node-\d+)-data$/.exec(id))) {
          var box = figure.querySelector("#" + match[1] + " .gg-t-value");
          if (box && box.textContent !== text) box.textContent = text;
        } else if (/-grad$/.test(id)) {
          var grad = figure.querySelector("#" + id);
          if (grad && grad.textContent !== text) { grad.textContent = text; grad.classList.remove("gg-t-empty"); }
        } else {
          var locals = figure.querySelectorAll("#" + id + " .gg-t-local"), local = locals[locals.length - 1];
          var at = local ? local.textContent.lastIndexOf("= ") : -1;  // "∂m/∂w = 3", or "∂m/∂w" above "= 3"
          if (at >= 0) {
            var next = local.textContent.slice(0, at + 2) + text;
            if (local.textContent !== next) local.textContent = next;
          }
        }
      });
    }
    function inspect(index) {
      if (running) pause();
      var t0 = performance.now();
      return ensureLab().then(function () {
        var view = neurons();
        return call("inspect", [index, !figureShown || drawnView !== view, view]);
      }).then(function (answer) {
        var work = [], drawn = false;
        if (answer.html) work.push(python.sanitize(answer.html, PREFIX).then(function (fragment) {
          $("graph").textContent = "";
          $("graph").appendChild(fragment);
          // Drawn at its natural size (node text 12 px), in a box that scrolls both ways: scaled to the column,
          // a graph with a box per parameter would have text too small to read.
          var svg = $("graph").querySelector("svg");
          if (svg && svg.style.maxWidth) svg.style.minWidth = svg.style.maxWidth;
          drawn = true;
        }));
        work.push(python.sanitize(answer.player, PREFIX));
        return Promise.all(work).then(function (parts) {
          var player = parts[parts.length - 1];
          dropPlayer();
          rewriteNumbers(answer.numbers);
          var section = player.querySelector(".gg-player");
          if (section) section.setAttribute("data-gg-graph", PREFIX);  // the page attaches it to the figure above
          $("player").appendChild(player);
          if (ns.players) ns.players.initAll($("player"));
          inspected = answer.index;
          figureShown = true;
          drawnView = answer.neurons;
          panel.hidden = false;
          var box = $("graph").querySelector(".gg-scroll"), loss = $("graph").querySelector("g.gg-root");
          if (drawn && box && loss) {  // a new drawing starts where backward starts: at the loss, on the right
            var at = box.getBoundingClientRect(), root = loss.getBoundingClientRect();
            box.scrollLeft += root.right - at.right + 24;
            box.scrollTop += root.top - at.top - box.clientHeight / 2;
          }
          var label = answer.label < 0 ? "−1 (blue)" : "+1 (orange)", score = "L" + (run.sizes.length - 1) + ".n0.z";
          var inside = answer.neurons ?
            " Values: the point (x1, x2), each neuron as one box (Ln.k: its weighted sum and its ReLU together, its weights and bias folded in), the score s (" +
              score + ") and the loss's own nodes; " + answer.links + " ParentLinks. The local derivative on a link into a neuron is that neuron's ∂h/∂x = ReLU′(z)·w: " +
              "the two links it stands for, multiplied. Tick “Show every Value” to see the graph as the engine built it." :
            " Values: the point (x1, x2), the " + run.names.length + " parameters, what the network computed from them up to its score s (" + score +
              "), and the loss's own nodes; " + answer.links + " ParentLinks, each with its local derivative.";
          $("inspect-text").textContent = "Training point " + answer.index + " at (" + short(answer.point[0]) + ", " + short(answer.point[1]) +
            "), label y = " + label + ", at step " + run.step + ": its loss is " + short(answer.loss) + ". The graph has " + answer.values + inside +
            " The grads are this example's loss differentiated alone: its share of the step's gradient, before averaging and L2. Scroll the graph to see it all.";
          $("gradcheck-text").textContent = "";
          timings.inspect = performance.now() - t0;
          timings.inspections = (timings.inspections || 0) + 1;
          drawAll();
        });
      }).catch(failed);
    }
    function gradcheck() {
      if (inspected < 0) return;
      $("gradcheck-text").textContent = "Checking…";
      call("gradcheck", [inspected]).then(function (result) {
        $("gradcheck-text").textContent = (result.passed ? "✓ " : "✗ ") + "gradcheck on point " + result.index + ": the engine's gradients of its loss with respect to all " +
          result.checked + " inputs (every parameter, x1 and x2) " + (result.passed ? "agree" : "do not agree") +
          " with central differences; the largest error is " + Number(result.error).toExponential(1) + ".";
      }, failed);
    }

    // --- clicks on the plane ----------------------------------------------------------------------------------
    function nearest(x, y) {
      var box = { width: plane.clientWidth, height: plane.clientHeight }, best = -1, bestDistance = 14 * 14;
      run.points.forEach(function (p, k) {
        var at = toCanvas(run.view, box, p[0], p[1]), d = (at[0] - x) * (at[0] - x) + (at[1] - y) * (at[1] - y);
        if (d < bestDistance) { best = k; bestDistance = d; }
      });
      return best;
    }
    // What a click at (x, y), in CSS pixels from the plane's top left corner, does: the chosen action.
    function actAt(x, y) {
      if (!run) { ensureLab().catch(failed); return; }
      var width = plane.clientWidth, height = plane.clientHeight;
      var mode = (root.querySelector('input[name="gg-lab-click"]:checked') || {}).value || "inspect";
      if (mode === "inspect") {
        var k = nearest(x, y);
        if (k >= 0) inspect(k);
        return;
      }
      if (mode === "remove") {
        var gone = nearest(x, y);
        if (gone < 0) return;
        var origin = run.origins[gone];
        if (origin >= 0) settings.removed = settings.removed.concat([origin]);
        else settings.added = settings.added.filter(function (_, k) { return k !== -1 - origin; });
      } else {
        var view = run.view;
        var x1 = view[0] + x / width * (view[1] - view[0]), x2 = view[3] - y / height * (view[3] - view[2]);
        settings.added = settings.added.concat([[Number(x1.toFixed(3)), Number(x2.toFixed(3)), mode === "add+1" ? 1 : -1]]);
      }
      restart();
    }
    plane.addEventListener("click", function (event) {
      var rect = plane.getBoundingClientRect();
      actAt(event.clientX - rect.left - plane.clientLeft, event.clientY - rect.top - plane.clientTop);
    });
    // The keyboard's click: arrow keys move a cross over the plane (Shift: further), Enter or Space acts there.
    var MOVES = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    plane.addEventListener("keydown", function (event) {
      if (own(MOVES, event.key)) {
        var by = event.shiftKey ? 0.1 : 0.02;
        cross = [Math.min(1, Math.max(0, cross[0] + MOVES[event.key][0] * by)), Math.min(1, Math.max(0, cross[1] + MOVES[event.key][1] * by))];
        drawAll();
      } else if (event.key === "Enter" || event.key === " ") {
        actAt(cross[0] * plane.clientWidth, cross[1] * plane.clientHeight);
      } else return;
      event.preventDefault();
    });
    plane.addEventListener("focus", drawAll);
    plane.addEventListener("blur", drawAll);

    // --- controls -------------------------------------------------------------------------------------------
    buttons.train.addEventListener("click", train);
    buttons.step.addEventListener("click", step);
    buttons.reset.addEventListener("click", function () { ensureLab().then(restart, failed); });
    buttons.inspect.addEventListener("click", function () { inspect(-1); });
    buttons.gradcheck.addEventListener("click", gradcheck);
    $("every-value").addEventListener("change", function () {
      if (figureShown && inspected >= 0) { dropPlayer(); inspect(inspected); }
      prepare();
    });
    buttons["close-inspect"].addEventListener("click", function () { dropPlayer(); closeInspect(); drawAll(); });
    buttons.download.addEventListener("click", function () {
      ensureLab().then(function () { return call("script", [window.location.href]); }).then(function (text) {
        var link = document.createElement("a");
        link.href = URL.createObjectURL(new Blob([text], { type: "text/x-python" }));
        link.download = "glassgrad-lab-run.py";
        document.body.appendChild(link);
        link.click();
        link.remove();
        window.setTimeout(function () { URL.revokeObjectURL(link.href); }, 10000);
      }, failed);
    });
    inputs.stop.addEventListener("change", readStop);
    Object.keys(inputs).forEach(function (key) {
      if (key === "stop") return;
      inputs[key].addEventListener("change", function () {
        var el = inputs[key];
        if (key === "layers") {
          var widths = parseLayers(el.value);
          if (!widths) { say("Hidden layers: up to four widths from 1 to 32, separated by commas, such as 8, 8."); el.value = settings.layers.join(", "); return; }
          settings.layers = widths;
        } else if (key === "data" || key === "loss") settings[key] = el.value;
        else if (el.value === "" || !isFinite(Number(el.value))) { el.value = String(settings[key]); return; }
        else settings[key] = Number(el.value);
        if (key === "data" || key === "size" || key === "noise" || key === "seed") { settings.added = []; settings.removed = []; }
        restart();
      });
    });
    ["pointerenter", "focusin", "touchstart"].forEach(function (type) {  // the reader shows intent: load Python
      root.addEventListener(type, function () { if (!lab && !opening) ensureLab().catch(failed); }, { passive: true, once: true });
    });
    window.addEventListener("resize", drawAll);

    // For the page's tests and the curious: the grid the heat map used, and its scores.
    ns.lab = {
      timings: timings,
      grid: function () {
        var points = [];
        for (var j = 0; j < grid; j++) for (var i = 0; i < grid; i++) points.push(gridPoint(run.view, i, j));
        return { points: points, scores: Array.from(heatMap()) };
      },
      history: function () { return history.slice(); },
      losses: function () { return losses.slice(); },
      state: function () { return run; },
      running: function () { return running || inFlight; },
      call: call,
    };

    return function () {
      closed = true;
      running = false;
      if (lab) lab.close();
      lab = null;
      ns.lab = null;
    };
  }

  function setUpAll() {
    var root = document.querySelector("[data-gg-lab]:not([data-gg-ready])");
    if (closeCurrent && (root || !document.querySelector("[data-gg-lab]"))) { closeCurrent(); closeCurrent = null; }
    if (root) closeCurrent = setUp(root);
  }
  if (window.document$ && window.document$.subscribe) window.document$.subscribe(setUpAll);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUpAll);
  else setUpAll();
})();
