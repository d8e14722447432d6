/* glassgrad players: replay build-time frames (from glassgrad.viz.animate) on a draw_graph SVG.
 *
 * Every number shown here was computed and formatted by the Python engine and embedded in the
 * page as JSON: this script only moves through those frames, toggles classes and copies text.
 * No gradient and no order is computed in the browser. Without JavaScript the static HTML
 * (the full ordered list, the full trace) is complete; this script only enhances it.
 *
 * Loaded once per page by the site (docs/hooks/package_assets.py) and inline by Jupyter
 * fragments; the guard below makes a second copy only initialise what is new.
 */
(function () {
  "use strict";

  var ns = (window.glassgrad = window.glassgrad || {});
  if (ns.players) {
    ns.players.initAll(document);
    return;
  }

  var BASE_DELAY_MS = 1200;  // one step every 1.2 s at speed 1
  var FRAME_CLASSES = ["gg-current", "gg-on-path", "gg-skipped", "gg-appended", "gg-done", "gg-active"];
  var EMPTY_GRAD = "\u2014";

  function byId(scope, id) {
    if (!id || !scope) return null;
    var escaped = window.CSS && CSS.escape ? CSS.escape(id) : id.replace(/([^\w-])/g, "\\$1");
    return scope.querySelector("#" + escaped);
  }

  function readFrames(element) {
    var script = element.querySelector('script[type="application/json"].gg-frames');
    if (!script) return null;
    try {
      return JSON.parse(script.textContent);
    } catch (error) {
      return null;  // a damaged payload leaves the static page as it is
    }
  }

  /* One player: a graph, its frames, the controls and an aria-live status line. */
  function Player(element, data) {
    var self = this;
    this.el = element;
    this.data = data;
    this.frames = data.frames;
    this.index = 0;
    this.timer = null;
    this.speed = 1;
    this.svg = element.querySelector(".gg-player-graph svg");
    this.status = element.querySelector(".gg-player-status");
    this.card = element.querySelector(".gg-player-card");
    this.controls = element.querySelector(".gg-player-controls");
    this.pathRow = element.querySelector(".gg-player-path-row");
    this.speedSelect = element.querySelector(".gg-player-speed");
    this.buttons = {};
    element.querySelectorAll("[data-gg-action]").forEach(function (button) {
      self.buttons[button.getAttribute("data-gg-action")] = button;
    });
  }

  Player.prototype.start = function () {
    var self = this;
    var b = this.buttons;
    if (this.controls) this.controls.hidden = false;
    if (this.pathRow) this.pathRow.hidden = false;
    this.el.classList.add("gg-player--live");
    if (b.reset) b.reset.addEventListener("click", function () { self.stop(); self.go(0); });
    if (b.back) b.back.addEventListener("click", function () { self.stop(); self.go(self.index - 1); });
    if (b.forward) b.forward.addEventListener("click", function () { self.stop(); self.go(self.index + 1); });
    if (b.play) b.play.addEventListener("click", function () { self.toggle(); });
    if (b.fullscreen) b.fullscreen.addEventListener("click", function () { self.toggleFullscreen(); });
    if (this.speedSelect) {
      this.speedSelect.addEventListener("change", function () {
        self.speed = parseFloat(self.speedSelect.value) || 1;
        if (self.timer) { self.stop(); self.play(); }
      });
    }
    this.el.addEventListener("keydown", function (event) { self.onKey(event); });
    this.go(0);
    // Live only after the first frame is shown: loading a page must not read every player aloud.
    if (this.status) this.status.setAttribute("aria-live", "polite");
  };

  Player.prototype.onKey = function (event) {
    var target = event.target;
    var tag = target && target.tagName;
    if (tag === "SELECT" || tag === "INPUT" || tag === "TEXTAREA") return;
    // Arrow keys inside the graph's scroll box scroll it, as everywhere else on the page.
    if (target.closest && target.closest(".gg-scroll") && event.key.indexOf("Arrow") === 0) return;
    if (event.key === "ArrowRight") {
      this.stop(); this.go(this.index + 1); event.preventDefault();
    } else if (event.key === "ArrowLeft") {
      this.stop(); this.go(this.index - 1); event.preventDefault();
    } else if (event.key === " " || event.key === "Spacebar") {
      if (tag === "BUTTON") return;  // space on a focused button already clicks it
      this.toggle(); event.preventDefault();
    } else if (event.key === "Home") {
      this.stop(); this.go(0); event.preventDefault();
    } else if (event.key === "End") {
      this.stop(); this.go(this.frames.length - 1); event.preventDefault();
    }
  };

  Player.prototype.toggle = function () {
    if (this.timer) this.stop(); else this.play();
  };

  Player.prototype.play = function () {
    var self = this;
    if (this.index >= this.frames.length - 1) this.go(0);
    this.timer = window.setInterval(function () {
      if (!self.el.isConnected) { self.stop(); return; }  // the page was swapped by instant navigation
      self.go(self.index + 1);
      if (self.index >= self.frames.length - 1) self.stop();
    }, BASE_DELAY_MS / this.speed);
    this.el.classList.add("gg-player--playing");
    this.syncButtons();
  };

  Player.prototype.stop = function () {
    if (this.timer) window.clearInterval(this.timer);
    this.timer = null;
    this.el.classList.remove("gg-player--playing");
    this.syncButtons();
  };

  Player.prototype.go = function (index) {
    var last = this.frames.length - 1;
    this.index = Math.max(0, Math.min(last, index));
    this.clear();
    if (this.data.kind === "order") this.renderOrder(); else this.renderBackward();
    var frame = this.frames[this.index];
    if (this.status) this.status.textContent = frame.label + ". " + frame.text;
    this.el.setAttribute("data-gg-step", String(this.index));
    this.syncButtons();
    this.follow(frame);
  };

  /* Keep the step's element in view when the graph is wider than its box (sideways only). */
  Player.prototype.follow = function (frame) {
    var box = this.svg && this.svg.closest(".gg-scroll");
    var target = byId(this.svg, frame.edge || frame.node || frame.parent);
    if (!box || !target || box.scrollWidth <= box.clientWidth) return;
    var view = box.getBoundingClientRect();
    var spot = target.getBoundingClientRect();
    if (spot.left >= view.left && spot.right <= view.right) return;
    var left = box.scrollLeft + (spot.left + spot.width / 2) - (view.left + view.width / 2);
    var smooth = !(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
    box.scrollTo({ left: Math.max(0, left), behavior: smooth ? "smooth" : "auto" });
  };

  Player.prototype.syncButtons = function () {
    var b = this.buttons;
    var last = this.frames.length - 1;
    // aria-disabled, not disabled: a disabled button would drop the keyboard focus to the page.
    if (b.back) b.back.setAttribute("aria-disabled", String(this.index === 0));
    if (b.reset) b.reset.setAttribute("aria-disabled", String(this.index === 0));
    if (b.forward) b.forward.setAttribute("aria-disabled", String(this.index === last));
    if (b.play) {
      var playing = !!this.timer;
      b.play.textContent = playing ? "Pause" : "Play";
      b.play.setAttribute("aria-pressed", playing ? "true" : "false");
    }
  };

  /* Remove the previous frame's classes (the pointer's gg-linked highlight is left alone). */
  Player.prototype.clear = function () {
    this.el.querySelectorAll("." + FRAME_CLASSES.join(", .")).forEach(function (el) {
      FRAME_CLASSES.forEach(function (name) { el.classList.remove(name); });
    });
  };

  Player.prototype.mark = function (id, name) {
    var el = byId(this.svg, id);
    if (el) el.classList.add(name);
  };

  /* Order walk: the open visit path, the current event, the dependency-first list so far. */
  Player.prototype.renderOrder = function () {
    var self = this;
    var frame = this.frames[this.index];
    var eventClass = { enter: "gg-current", skip: "gg-skipped", append: "gg-appended" }[frame.event];
    frame.order.forEach(function (id) { self.mark(id, "gg-done"); });
    frame.path.forEach(function (id) { self.mark(id, "gg-on-path"); });
    if (frame.node && eventClass) self.mark(frame.node, eventClass);
    (frame.edges || []).forEach(function (id) { self.mark(id, "gg-active"); });
    var appended = frame.order.length;
    this.el.querySelectorAll(".gg-order-list [data-gg-node]").forEach(function (chip, position) {
      chip.classList.toggle("gg-pending", position >= appended);
      if (frame.event === "append" && position === appended - 1) chip.classList.add("gg-appended");
      if (frame.event === "skip" && chip.getAttribute("data-gg-node") === frame.node) chip.classList.add("gg-skipped");
    });
    var reversed = frame.event === "reverse";
    this.el.querySelectorAll(".gg-schedule-list [data-gg-node]").forEach(function (chip) {
      chip.classList.toggle("gg-pending", !reversed);
    });
    var pathText = this.el.querySelector(".gg-player-path");
    if (pathText) {
      var labels = this.data.labels;
      pathText.textContent = frame.path.length
        ? frame.path.map(function (id) { return labels[id]; }).join(" \u2192 ")
        : "none";
    }
  };

  /* Backward pass: every node's grad text as of this frame, the active edge, the step card. */
  Player.prototype.renderBackward = function () {
    var self = this;
    var grads = {};
    for (var i = 0; i <= this.index; i++) {
      var changes = this.frames[i].grads || {};
      for (var id in changes) if (Object.prototype.hasOwnProperty.call(changes, id)) grads[id] = changes[id];
    }
    var prefix = this.data.grad_prefix || "";
    Object.keys(grads).forEach(function (id) {
      var node = byId(self.svg, id);
      var text = node && node.querySelector("text.gg-t-grad");
      if (!text) return;
      text.textContent = prefix + grads[id];
      text.classList.toggle("gg-t-empty", grads[id] === EMPTY_GRAD);
    });
    var frame = this.frames[this.index];
    if (frame.event === "step") {
      this.mark(frame.edge, "gg-active");
      (frame.edges || []).forEach(function (edge) { self.mark(edge, "gg-active"); });
      this.mark(frame.output, "gg-current");
      this.mark(frame.parent, "gg-appended");
    } else if (frame.event === "seed") {
      this.mark(frame.node, "gg-current");
    }
    this.renderCard(frame);
    this.el.querySelectorAll(".gg-player-trace [data-gg-step]").forEach(function (row) {
      var current = frame.event === "step" && parseInt(row.getAttribute("data-gg-step"), 10) === frame.step;
      current = current || (frame.event === "seed" && row.getAttribute("data-gg-step") === "0");
      row.classList.toggle("gg-current", current);
      if (current) row.setAttribute("aria-current", "step"); else row.removeAttribute("aria-current");
    });
  };

  Player.prototype.renderCard = function (frame) {
    var card = this.card;
    if (!card) return;
    var labels = this.data.labels;
    var isStep = frame.event === "step";
    // Only a player built with its own trace (trace=True) has cards to point at.
    var hasTrace = !!this.el.querySelector(".gg-player-trace [data-gg-step]");
    card.hidden = false;
    card.setAttribute("data-gg-event", frame.event);
    var stepPart = card.querySelector(".gg-player-card-step");
    if (stepPart) stepPart.hidden = !isStep;
    card.querySelectorAll("[data-gg-slot]").forEach(function (slot) {
      var field = slot.getAttribute("data-gg-slot");
      var value;
      if (field === "note") value = isStep ? frame.label + (hasTrace ? " (card " + frame.step + " of the trace below)" : "") : frame.text;
      else if (!isStep) value = "";
      else if (field === "output" || field === "parent") value = labels[frame[field]] || "";
      else value = frame[field];
      slot.textContent = value == null ? "" : String(value);
    });
  };

  /* Full screen: the Fullscreen API when the browser grants it, else a fixed overlay (Esc closes both). */
  Player.prototype.isFullscreen = function () {
    return document.fullscreenElement === this.el || this.el.classList.contains("gg-player--overlay");
  };

  Player.prototype.toggleFullscreen = function () {
    if (this.isFullscreen()) this.closeFullscreen(); else this.openFullscreen();
  };

  Player.prototype.openFullscreen = function () {
    var self = this;
    function overlay() {
      self.el.classList.add("gg-player--overlay");
      document.documentElement.classList.add("gg-overlay-open");
      self.syncFullscreen();
      self.el.focus();
    }
    if (this.el.requestFullscreen && document.fullscreenEnabled) {
      var request = this.el.requestFullscreen();
      if (request && request.then) request.then(function () { self.syncFullscreen(); }, overlay);
    } else {
      overlay();
    }
  };

  Player.prototype.closeFullscreen = function () {
    if (document.fullscreenElement === this.el && document.exitFullscreen) document.exitFullscreen();
    this.el.classList.remove("gg-player--overlay");
    document.documentElement.classList.remove("gg-overlay-open");
    this.syncFullscreen();
  };

  Player.prototype.syncFullscreen = function () {
    var open = this.isFullscreen();
    this.el.classList.toggle("gg-player--fullscreen", open);
    var button = this.buttons.fullscreen;
    if (button) {
      button.textContent = open ? "Close full screen" : "Open full screen";
      button.setAttribute("aria-pressed", open ? "true" : "false");
    }
  };

  function init(element) {
    if (element.hasAttribute("data-gg-ready")) return;  // instant navigation or a second script copy
    element.setAttribute("data-gg-ready", "");
    var data = readFrames(element);
    if (!data || !data.frames || !data.frames.length) return;
    var player = new Player(element, data);
    element.glassgradPlayer = player;
    player.start();
  }

  /* Linked highlights, page-wide: a trace card with data-gg-edge (show_backward_steps given its
   * graph) and that edge light up together, with the operation and both nodes. */
  var LINK_ATTRIBUTES = ["data-gg-edge", "data-gg-op", "data-gg-output-node", "data-gg-parent-node"];

  function lightLink(card, on) {
    LINK_ATTRIBUTES.forEach(function (name) {
      var el = document.getElementById(card.getAttribute(name) || "");
      if (el) el.classList.toggle("gg-linked", on);
    });
    var edgeId = card.getAttribute("data-gg-edge");
    document.querySelectorAll(".gg-step[data-gg-edge]").forEach(function (other) {
      if (other.getAttribute("data-gg-edge") === edgeId) other.classList.toggle("gg-linked", on);
    });
  }

  function linkAll(root) {
    root.querySelectorAll(".gg-step[data-gg-edge]:not([data-gg-link-ready])").forEach(function (card) {
      card.setAttribute("data-gg-link-ready", "");
      if (!card.hasAttribute("tabindex")) card.setAttribute("tabindex", "0");  // focusable for keyboards
      card.addEventListener("mouseenter", function () { lightLink(card, true); });
      card.addEventListener("mouseleave", function () { lightLink(card, false); });
      card.addEventListener("focus", function () { lightLink(card, true); });
      card.addEventListener("blur", function () { lightLink(card, false); });
      var edge = document.getElementById(card.getAttribute("data-gg-edge") || "");
      if (edge && !edge.hasAttribute("data-gg-link-ready")) {
        edge.setAttribute("data-gg-link-ready", "");
        edge.addEventListener("mouseenter", function () { lightLink(card, true); });
        edge.addEventListener("mouseleave", function () { lightLink(card, false); });
      }
    });
  }

  function initAll(root) {
    root = root || document;
    root.querySelectorAll(".gg-player").forEach(init);
    linkAll(root);
  }

  /* Once per page, not per player: instant navigation would otherwise pile up listeners. */
  function eachPlayer(callback) {
    document.querySelectorAll(".gg-player[data-gg-ready]").forEach(function (element) {
      if (element.glassgradPlayer) callback(element.glassgradPlayer);
    });
  }
  document.addEventListener("fullscreenchange", function () {
    eachPlayer(function (player) { player.syncFullscreen(); });
  });
  document.addEventListener("keydown", function (event) {
    // Browsers usually keep Esc for leaving native full screen; where the page receives it, honour it.
    if (event.key !== "Escape") return;
    eachPlayer(function (player) {
      if (player.isFullscreen()) player.closeFullscreen();
    });
  });

  ns.players = { initAll: initAll };

  if (window.document$ && typeof window.document$.subscribe === "function") {
    // Material's instant navigation swaps the page content and emits on document$ each time.
    window.document$.subscribe(function () { initAll(document); });
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { initAll(document); });
  } else {
    initAll(document);
  }
})();
