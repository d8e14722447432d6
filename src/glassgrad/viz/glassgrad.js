/* glassgrad players: apply the frames glassgrad.viz.animate computed (format in its docstring); compute nothing.
 * The site loads this on every page, Jupyter fragments inline it: a second copy only initialises new players. */
(function () {
  "use strict";

  var ns = (window.glassgrad = window.glassgrad || {});
  if (ns.players) return ns.players.initAll(document);
  var DELAY_MS = 1200;  // one step every 1.2 s at speed 1
  var KEYS = { ArrowRight: "forward", ArrowLeft: "back", Home: "reset", End: "end", " ": "play" };

  var ID = /^[A-Za-z][\w-]{0,200}$/;  // the ids viz writes: letters, digits, _ and -

  /* HTML of a frame's text, rebuilt with createElement and textContent: a few inline tags, class names only. */
  var TAGS = { DIV: 1, SPAN: 1, SUB: 1, SUP: 1, CODE: 1, B: 1, STRONG: 1, EM: 1, I: 1, P: 1, SMALL: 1, VAR: 1, BR: 1 };
  function rebuilt(source, into) {
    source.childNodes.forEach(function (node) {
      if (node.nodeType === 3) return into.appendChild(document.createTextNode(node.nodeValue));
      if (node.nodeType !== 1) return;
      if (!TAGS[node.tagName]) return rebuilt(node, into);  // an unknown element: its text only
      var copy = document.createElement(node.tagName.toLowerCase());
      var classes = (node.getAttribute("class") || "").split(/\s+/).filter(function (name) { return /^[\w-]+$/.test(name); });
      if (classes.length) copy.className = classes.join(" ");
      into.appendChild(copy);
      rebuilt(node, copy);
    });
  }
  function setText(element, text) {
    if (element.ggText === text) return;
    element.ggText = text;
    if (!/[<&]/.test(text)) { element.textContent = text; return; }
    var parsed = new DOMParser().parseFromString("<body>" + text, "text/html");  // inert: nothing runs or loads
    var content = document.createDocumentFragment();
    rebuilt(parsed.body, content);
    element.textContent = "";
    element.appendChild(content);
  }

  function player(el, frames) {
    var index = 0, timer = null, marked = [], last = frames.length - 1, buttons = {};
    var status = el.querySelector(".gg-player-status"), speed = el.querySelector(".gg-player-speed");
    // A player plays on its own figure: it looks up only ids of its prefix (its figure's, its card's, its trace's).
    // One with data-gg-graph plays on that figure elsewhere on the page (never inside a page's output box).
    var attached = el.hasAttribute("data-gg-graph"), asDrawn = attached;
    var prefix = (attached ? el.getAttribute("data-gg-graph") : el.id.replace(/-player$/, "")) + "-";
    var scope = attached ? document : el;
    if (!ID.test(prefix + "x") || (attached && el.closest("[data-gg-sandbox]"))) return;
    var find = function (id) { return id && ID.test(id) && id.indexOf(prefix) === 0 ? scope.querySelector("#" + id) : null; };
    var isFullscreen = function () { return document.fullscreenElement === el || el.classList.contains("gg-player--overlay"); };

    function go(to) {
      asDrawn = false;
      index = Math.max(0, Math.min(last, to));
      var frame = frames[index], texts = {};
      marked.forEach(function (element) {
        element.classList.remove.apply(element.classList, element.ggMarks);
        element.removeAttribute("aria-current");
      });
      marked = Object.keys(frame.marks).map(find).filter(Boolean);
      marked.forEach(function (element) {
        element.ggMarks = frame.marks[element.id].split(" ").filter(Boolean);
        element.classList.add.apply(element.classList, element.ggMarks);
        if (element.ggMarks.indexOf("gg-current") >= 0) element.setAttribute("aria-current", "step");
      });
      for (var i = 0; i <= index; i++) Object.assign(texts, frames[i].texts);
      Object.keys(texts).forEach(function (id) {
        var element = find(id);
        if (element) setText(element, String(texts[id]));
      });
      status.textContent = frame.label + ". " + frame.text;
      el.setAttribute("data-gg-step", String(index));
      sync();
      follow(find(frame.focus));
    }

    /* Keep the step's element in view when the graph is wider than its box (smoothly, per animate.css). */
    function follow(target) {
      var box = target && target.closest(".gg-scroll");
      if (!box) return;
      var view = box.getBoundingClientRect(), spot = target.getBoundingClientRect();
      if (spot.left < view.left || spot.right > view.right) box.scrollLeft += spot.left + spot.width / 2 - view.left - view.width / 2;
    }

    function sync() {
      var full = isFullscreen();
      // aria-disabled, not disabled: a disabled button would drop the keyboard focus to the page.
      buttons.back.setAttribute("aria-disabled", String(index === 0));
      buttons.reset.setAttribute("aria-disabled", String(index === 0 && !asDrawn));  // as drawn: Reset shows the start
      buttons.forward.setAttribute("aria-disabled", String(index === last));
      buttons.play.textContent = timer ? "Pause" : "Play";
      buttons.play.setAttribute("aria-pressed", String(!!timer));
      el.classList.toggle("gg-player--fullscreen", full);
      if (!buttons.fullscreen) return;  // a player on a figure outside it has none
      buttons.fullscreen.textContent = full ? "Close full screen" : "Open full screen";
      buttons.fullscreen.setAttribute("aria-pressed", String(full));
    }

    function stop() {
      window.clearInterval(timer);
      timer = null;
      sync();
    }

    function play() {
      if (index === last) go(0);
      timer = window.setInterval(function () {
        if (!el.isConnected) return stop();  // instant navigation swapped the page
        go(index + 1);
        if (index === last) stop();
      }, DELAY_MS / parseFloat(speed.value));
      sync();
    }

    /* The Fullscreen API where the browser grants it, else a fixed overlay. */
    function overlay(on) {
      el.classList.toggle("gg-player--overlay", on);
      document.documentElement.classList.toggle("gg-overlay-open", on);
      sync();
      if (on) el.focus();
    }

    function fullscreen(on) {
      if (!on && document.fullscreenElement === el) document.exitFullscreen();
      if (!on || !document.fullscreenEnabled) return overlay(on);
      el.requestFullscreen().then(sync, function () { overlay(true); });
    }

    var actions = {
      reset: function () { stop(); go(0); },
      back: function () { stop(); go(index - 1); },
      forward: function () { stop(); go(index + 1); },
      end: function () { stop(); go(last); },
      play: function () { if (timer) stop(); else play(); },
      fullscreen: function () { fullscreen(!isFullscreen()); },
    };
    el.querySelectorAll("[data-gg-action]").forEach(function (button) {
      buttons[button.getAttribute("data-gg-action")] = button;
      button.addEventListener("click", actions[button.getAttribute("data-gg-action")]);
    });
    el.querySelectorAll(".gg-js").forEach(function (part) { part.hidden = false; });
    speed.addEventListener("change", function () { if (timer) { stop(); play(); } });
    el.addEventListener("fullscreenchange", sync);
    el.addEventListener("keydown", function (event) {
      var tag = event.target.tagName, action = KEYS[event.key];
      if (!action || tag === "SELECT" || (action === "play" && tag === "BUTTON")) return;  // a button clicks itself
      // Arrow keys inside the graph's scroll box scroll it, as everywhere else on the page.
      if (event.key.indexOf("Arrow") === 0 && event.target.closest(".gg-scroll")) return;
      actions[action]();
      event.preventDefault();
    });
    el.ggClose = function () { fullscreen(false); };
    if (attached) {  // the page's figure stays as drawn (after backward) until the first step; its status says so
      el.setAttribute("data-gg-step", "0");
      sync();
    } else go(0);
    // Live only after the first frame is shown: loading a page must not read every player aloud.
    status.setAttribute("aria-live", "polite");
  }

  /* Linked highlights, page-wide: a trace card (data-gg-edge) and its edge, operation and both nodes. */
  function onLink(event) {
    var target = event.target.closest ? event.target : document.body;
    var card = target.closest(".gg-step[data-gg-edge]"), edge = target.closest(".gg-svg .edge[id]");
    if (edge && !card && ID.test(edge.id)) card = (edge.closest("[data-gg-sandbox]") || document).querySelector('.gg-step[data-gg-edge="' + edge.id + '"]');
    if (!card) return;
    var on = event.type === "mouseover" || event.type === "focusin";
    var scope = card.closest("[data-gg-sandbox]") || document;  // a page's output box: its own figures only
    ["data-gg-edge", "data-gg-op", "data-gg-output-node", "data-gg-parent-node"].forEach(function (name) {
      var id = card.getAttribute(name);
      var element = id && ID.test(id) ? scope.querySelector("#" + id) : null;
      if (element) element.classList.toggle("gg-linked", on);
    });
    card.classList.toggle("gg-linked", on);
  }
  ["mouseover", "mouseout", "focusin", "focusout"].forEach(function (type) { document.addEventListener(type, onLink); });
  // Browsers usually keep Esc for leaving native full screen; where the page receives it, honour it.
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    document.querySelectorAll(".gg-player--fullscreen").forEach(function (el) { el.ggClose(); });
  });

  function initAll(root) {
    root.querySelectorAll(".gg-player:not([data-gg-ready])").forEach(function (el) {
      el.setAttribute("data-gg-ready", "");
      try {
        player(el, JSON.parse(el.querySelector("script.gg-frames").textContent).frames);
      } catch { /* a damaged payload leaves the static page as it is */ }
    });
    root.querySelectorAll(".gg-step[data-gg-edge]").forEach(function (card) { card.tabIndex = 0; });  // focusable
  }

  ns.players = { initAll: initAll };
  initAll(document);  // the site and Jupyter both load this after the players' markup
  // Material's instant navigation swaps the page content and emits on document$ each time.
  if (window.document$) window.document$.subscribe(function () { initAll(document); });
})();
