// The console (docs/javascripts/console.js) on jsdom: a run's output is capped and counted, in order.
import assert from "node:assert/strict";
import { test } from "node:test";
import { JSDOM } from "jsdom";

const { window } = new JSDOM("<!doctype html><body><pre hidden></pre></body>");
Object.assign(globalThis, { document: window.document, window: { requestAnimationFrame: (/** @type {() => void} */ draw) => { draw(); return 0; } } });
const { DRAW_CHARS, MAX_CHARS, MAX_LINES, PAGE_LINES, outputConsole } = await import("../../docs/javascripts/console.js");

function fresh() {
  const pre = /** @type {HTMLElement} */ (window.document.querySelector("pre"));
  const printed = outputConsole(pre);
  return { pre, printed };
}

test("printed text shows, stdout and stderr in order, and an empty console stays hidden", () => {
  const { pre, printed } = fresh();
  assert.equal(pre.hidden, true);
  printed.add([["stdout", "a"], ["stdout", "b\n"], ["stderr", "oops\n"], ["stdout", "c"]]);
  assert.equal(pre.hidden, false);
  assert.equal(pre.textContent, "ab\noops\nc\n");
  assert.equal(pre.querySelectorAll(".gg-pg-stderr").length, 1);
  printed.clear();
  assert.equal(pre.hidden, true);
});

test("a run's first MAX_CHARS characters are kept and the rest counted, however it arrives", () => {
  const { pre, printed } = fresh();
  printed.add([["stdout", "x".repeat(MAX_CHARS - 10)]]);
  printed.add([["stdout", "y".repeat(30) + "\n" + "z".repeat(20)]], 2, 7);
  const lines = (pre.textContent || "").split("\n");
  assert.equal(lines[0], "x".repeat(MAX_CHARS - 10) + "y".repeat(10));
  assert.equal(lines[1], "… 3 more lines and 48 characters not shown (a program's output stops at 200,000 characters)");
  printed.add([], 1, 1000);  // only the count grows
  assert.match(pre.textContent || "", /… 4 more lines and 1,048 characters not shown/);
});

test("the latest MAX_LINES lines are kept, the earlier counted", () => {
  const { pre, printed } = fresh();
  printed.add([["stdout", Array.from({ length: MAX_LINES + 50 }, (_, i) => `line ${i}`).join("\n") + "\n"]]);
  const lines = (pre.textContent || "").trimEnd().split("\n");
  assert.equal(lines.length, MAX_LINES + 1);
  assert.equal(lines[0], "… 50 earlier lines not shown (the last 2,000 lines are kept)");
  assert.equal(lines[1], "line 50");
  assert.equal(lines[MAX_LINES], `line ${MAX_LINES + 49}`);
});

test("a drawing touches only what came since the last: earlier lines keep their spans, trimmed ones go", () => {
  const { pre, printed } = fresh();
  printed.add([["stdout", "first\nsecond"]]);
  const first = pre.firstElementChild;
  printed.add([["stdout", " half\n"], ["stderr", "third\n"]]);
  assert.equal(pre.firstElementChild, first);  // not drawn again
  assert.equal(pre.textContent, "first\nsecond half\nthird\n");
  printed.add([["stdout", Array.from({ length: MAX_LINES }, (_, i) => `n${i}`).join("\n") + "\n"]]);
  assert.equal(pre.querySelectorAll("span:not(.gg-pg-dropped) > span").length, MAX_LINES);
  assert.equal(pre.firstElementChild?.textContent, "… 3 earlier lines not shown (the last 2,000 lines are kept)\n");
  assert.equal(pre.lastElementChild?.lastElementChild?.textContent, `n${MAX_LINES - 1}\n`);
});

test("a drawing adds at most DRAW_CHARS characters; the next frames draw the rest, in pages of PAGE_LINES lines", () => {
  const { pre } = fresh();
  /** @type {Array<() => void>} */
  const frames = [];
  const own = { requestAnimationFrame: (/** @type {() => void} */ draw) => frames.push(draw) };
  const saved = globalThis.window;
  Object.assign(globalThis, { window: own });
  try {
    const printed = outputConsole(pre);
    const line = "y".repeat(99);
    printed.add([["stdout", (line + "\n").repeat(MAX_LINES)]]);
    /** @type {number[]} */
    const shown = [];
    while (frames.length) {
      /** @type {() => void} */ (frames.shift())();
      shown.push((pre.textContent || "").length);
    }
    assert.ok(shown.length > 1);
    shown.reduce((before, now) => { assert.ok(now - before <= DRAW_CHARS + 100); return now; }, 0);
    assert.equal(pre.textContent, (line + "\n").repeat(MAX_LINES));
    const pages = [...pre.children];
    assert.equal(pages.length, MAX_LINES / PAGE_LINES);
    assert.ok(pages.every((page) => page.childElementCount === PAGE_LINES));
  } finally {
    Object.assign(globalThis, { window: saved });
  }
});

test("trimmed lines take their emptied pages with them", () => {
  const { pre, printed } = fresh();
  printed.add([["stdout", Array.from({ length: MAX_LINES }, (_, i) => `n${i}`).join("\n") + "\n"]]);
  const first = pre.firstElementChild;
  printed.add([["stdout", Array.from({ length: MAX_LINES }, (_, i) => `n${MAX_LINES + i}`).join("\n") + "\n"]]);
  assert.equal(first?.isConnected, false);
  const pages = [...pre.children].filter((child) => !child.classList.contains("gg-pg-dropped"));
  assert.equal(pages.length, MAX_LINES / PAGE_LINES);
  assert.ok(pages.every((page) => page.childElementCount > 0));
  assert.equal(pages[0].firstElementChild?.textContent, `n${MAX_LINES}\n`);
});
