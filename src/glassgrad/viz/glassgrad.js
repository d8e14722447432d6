/* glassgrad players: step through frames computed at build time by glassgrad.viz.animate.
 * A frame gives the status line, the classes some elements carry in this frame only (marks) and the
 * HTML of elements from this frame on (texts); this script computes nothing. The site loads it on
 * every page, Jupyter fragments inline it: a second copy only initialises the new players. */
(function () {
  "use strict";

  var ns = (window.glassgrad = window.glassgrad || {});
  if (ns.players) return ns.players.initAll(document);
  var DELAY_MS = 1200;  // one step every 1.2 s at speed 1
  var KEYS = { ArrowRight: "forward", ArrowLeft: "back", Home: "reset", End: "end", " ": "play" };

  function Player(el, frames) {
    var self = this;
    this.el = el;
    this.frames = frames;
    this.index = 0;
    this.timer = null;
    this.marked = [];
    this.status = el.querySelector(".gg-player-status");
    this.speed = el.querySelector(".gg-player-speed");
    this.buttons = {};
    var last = frames.length - 1;
    var actions = {
      reset: function () { self.stop(); self.go(0); },
      back: function () { self.stop(); self.go(self.index - 1); },
      forward: function () { self.stop(); self.go(self.index + 1); },
      end: function () { self.stop(); self.go(last); },
      play: function () { if (self.timer) self.stop(); else self.play(); },
      fullscreen: function () { self.fullscreen(!self.isFullscreen()); },
    };
    el.querySelectorAll("[data-gg-action]").forEach(function (button) {
      var action = button.getAttribute("data-gg-action");
      self.buttons[action] = button;
      button.addEventListener("click", actions[action]);
    });
    el.querySelectorAll(".gg-js").forEach(function (part) { part.hidden = false; });
    this.speed.addEventListener("change", function () {
      if (self.timer) { self.stop(); self.play(); }
    });
    el.addEventListener("keydown", function (event) {
      var tag = event.target.tagName, action = KEYS[event.key];
      if (!action || tag === "SELECT" || tag === "INPUT" || tag === "TEXTAREA") return;
      if (action === "play" && tag === "BUTTON") return;  // space on a focused button already clicks it
      // Arrow keys inside the graph's scroll box scroll it, as everywhere else on the page.
      if (event.key.indexOf("Arrow") === 0 && event.target.closest(".gg-scroll")) return;
      actions[action]();
      event.preventDefault();
    });
    this.go(0);
    // Live only after the first frame is shown: loading a page must not read every player aloud.
    this.status.setAttribute("aria-live", "polite");
  }

  Player.prototype.find = function (id) {
    return id ? this.el.querySelector("#" + id) : null;  // ids are letters, digits, "_" and "-"
  };

  Player.prototype.play = function () {
    var self = this, last = this.frames.length - 1;
    if (this.index >= last) this.go(0);
    this.timer = window.setInterval(function () {
      if (!self.el.isConnected) return self.stop();  // instant navigation swapped the page
      self.go(self.index + 1);
      if (self.index >= last) self.stop();
    }, DELAY_MS / (parseFloat(this.speed.value) || 1));
    this.sync();
  };

  Player.prototype.stop = function () {
    window.clearInterval(this.timer);
    this.timer = null;
    this.sync();
  };

  Player.prototype.go = function (index) {
    var self = this;
    this.index = Math.max(0, Math.min(this.frames.length - 1, index));
    var frame = this.frames[this.index], texts = {};
    this.marked.forEach(function (pair) {
      pair[0].classList.remove.apply(pair[0].classList, pair[1]);
      pair[0].removeAttribute("aria-current");
    });
    this.marked = [];
    Object.keys(frame.marks).forEach(function (id) {
      var el = self.find(id), names = frame.marks[id].split(" ");
      if (!el) return;
      el.classList.add.apply(el.classList, names);
      if (names.indexOf("gg-current") >= 0) el.setAttribute("aria-current", "step");
      self.marked.push([el, names]);
    });
    for (var i = 0; i <= this.index; i++) Object.assign(texts, this.frames[i].texts);
    Object.keys(texts).forEach(function (id) {
      var el = self.find(id);
      if (el && el.innerHTML !== texts[id]) el.innerHTML = texts[id];  // Python built and escaped it
    });
    this.status.textContent = frame.label + ". " + frame.text;
    this.el.setAttribute("data-gg-step", String(this.index));
    this.sync();
    this.follow(this.find(frame.focus));
  };

  /* Keep the step's element in view when the graph is wider than its box (sideways only). */
  Player.prototype.follow = function (target) {
    var box = target && target.closest(".gg-scroll");
    if (!box || box.scrollWidth <= box.clientWidth) return;
    var view = box.getBoundingClientRect(), spot = target.getBoundingClientRect();
    if (spot.left >= view.left && spot.right <= view.right) return;
    var still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    box.scrollTo({ left: Math.max(0, box.scrollLeft + spot.left + spot.width / 2 - view.left - view.width / 2),
                   behavior: still ? "auto" : "smooth" });
  };

  Player.prototype.sync = function () {
    var b = this.buttons, first = this.index === 0, open = this.isFullscreen();
    // aria-disabled, not disabled: a disabled button would drop the keyboard focus to the page.
    b.back.setAttribute("aria-disabled", String(first));
    b.reset.setAttribute("aria-disabled", String(first));
    b.forward.setAttribute("aria-disabled", String(this.index === this.frames.length - 1));
    b.play.textContent = this.timer ? "Pause" : "Play";
    b.play.setAttribute("aria-pressed", String(!!this.timer));
    this.el.classList.toggle("gg-player--fullscreen", open);
    b.fullscreen.textContent = open ? "Close full screen" : "Open full screen";
    b.fullscreen.setAttribute("aria-pressed", String(open));
  };

  /* Full screen: the Fullscreen API where the browser grants it, else a fixed overlay. */
  Player.prototype.isFullscreen = function () {
    return document.fullscreenElement === this.el || this.el.classList.contains("gg-player--overlay");
  };

  Player.prototype.fullscreen = function (open) {
    var self = this;
    function overlay(on) {
      self.el.classList.toggle("gg-player--overlay", on);
      document.documentElement.classList.toggle("gg-overlay-open", on);
      self.sync();
      if (on) self.el.focus();
    }
    if (!open) {
      if (document.fullscreenElement === this.el) document.exitFullscreen();
      overlay(false);
    } else if (document.fullscreenEnabled && this.el.requestFullscreen) {
      this.el.requestFullscreen().then(function () { self.sync(); }, function () { overlay(true); });
    } else {
      overlay(true);
    }
  };

  /* Linked highlights, page-wide: a trace card (data-gg-edge) and its edge, operation and both nodes. */
  function onLink(event) {
    var target = event.target.closest ? event.target : document.body;
    var card = target.closest(".gg-step[data-gg-edge]"), edge = target.closest(".gg-svg .edge[id]");
    card = card || (edge && document.querySelector('.gg-step[data-gg-edge="' + edge.id + '"]'));
    if (!card) return;
    var on = event.type === "mouseover" || event.type === "focusin";
    ["data-gg-edge", "data-gg-op", "data-gg-output-node", "data-gg-parent-node"].forEach(function (name) {
      var el = document.getElementById(card.getAttribute(name));
      if (el) el.classList.toggle("gg-linked", on);
    });
    card.classList.toggle("gg-linked", on);
  }
  ["mouseover", "mouseout", "focusin", "focusout"].forEach(function (type) { document.addEventListener(type, onLink); });

  function initAll(root) {
    (root || document).querySelectorAll(".gg-player:not([data-gg-ready])").forEach(function (el) {
      el.setAttribute("data-gg-ready", "");
      var script = el.querySelector("script.gg-frames");
      try {
        el.glassgradPlayer = new Player(el, JSON.parse(script.textContent).frames);
      } catch (error) {}  // a damaged payload leaves the static page as it is
    });
    (root || document).querySelectorAll(".gg-step[data-gg-edge]").forEach(function (card) { card.tabIndex = 0; });
  }

  /* Once per page, not per player: instant navigation would otherwise pile up listeners. */
  function eachPlayer(callback) {
    document.querySelectorAll(".gg-player[data-gg-ready]").forEach(function (el) {
      if (el.glassgradPlayer) callback(el.glassgradPlayer);
    });
  }
  document.addEventListener("fullscreenchange", function () { eachPlayer(function (p) { p.sync(); }); });
  document.addEventListener("keydown", function (event) {
    // Browsers usually keep Esc for leaving native full screen; where the page receives it, honour it.
    if (event.key === "Escape") eachPlayer(function (p) { if (p.isFullscreen()) p.fullscreen(false); });
  });

  ns.players = { initAll: initAll };
  if (window.document$ && window.document$.subscribe) {
    window.document$.subscribe(function () { initAll(document); });  // Material's instant navigation
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { initAll(document); });
  } else {
    initAll(document);
  }
})();
