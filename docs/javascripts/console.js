// console.js: a program's printed output in a <pre>: of a run's first MAX_CHARS characters (the worker sends
// no more, and past them the page takes none), the latest MAX_LINES lines, drawn at most once per frame. Each
// batch costs in proportion to its own size, and so does each drawing: only the lines that came or changed
// since the last one are drawn, and the spans of lines trimmed away removed. The lines sit in pages of
// PAGE_LINES (inline blocks, each laid out on its own), so that the browser lays out again only the pages a
// drawing touched, not the whole box. What the page leaves out is the earliest lines (noted on top); what was
// cut past the cap, the latest (noted below).
//
//   const printed = outputConsole(pre);   printed.clear(); printed.add(chunks, droppedLines, droppedChars)
//   chunks: [["stdout" | "stderr", text], ...] as python-session.js's onOutput receives them.

export const MAX_LINES = 2000;
export const MAX_CHARS = 200000;
export const PAGE_LINES = 50;
export const DRAW_CHARS = 10000;  // characters a drawing adds at most (the rest wait for the next frames)

/** @typedef {{stream: "stdout" | "stderr", text: string, node: HTMLElement | null}} Line  node: its span, once drawn */

/** @param {{lines: number, chars: number}} left @param {string} which  "earlier" or "more" */
function count(left, which) {
  const parts = [];
  if (left.lines) parts.push(left.lines.toLocaleString("en") + " " + which + " line" + (left.lines === 1 ? "" : "s"));
  if (left.chars) parts.push(left.chars.toLocaleString("en") + " character" + (left.chars === 1 ? "" : "s"));
  return parts.join(" and ");
}

/** A page of lines: an inline block as wide as the box (its own layout; copied text keeps its line ends). */
function page() {
  const span = document.createElement("span");
  span.style.display = "inline-block";
  span.style.width = "100%";
  span.style.verticalAlign = "top";
  return span;
}

/** @param {HTMLElement} node  a line's span: removed, and its page with it once empty */
function detach(node) {
  const holder = node.parentElement;
  node.remove();
  if (holder && !holder.firstChild) holder.remove();
}

/** @param {string} text */
function note(text) {
  const span = document.createElement("span");
  span.className = "gg-pg-dropped";
  span.textContent = text + "\n";
  return span;
}

/**
 * @param {HTMLElement} pre  the box (hidden while it has nothing to show)
 * @returns {{clear: () => void, add: (chunks: Array<[string, string]>, moreLines?: number, moreChars?: number) => void}}
 */
export function outputConsole(pre) {
  /** @type {Line[]} */
  let lines = [];
  let earlier = { lines: 0, chars: 0 }, later = { lines: 0, chars: 0 }, chars = 0, drawing = 0;
  let fresh = 0;  // lines[fresh:] are not drawn, or changed since (the last, open line may grow)
  /** @type {HTMLElement[]} */
  let removed = [];  // the spans of lines trimmed since the last drawing
  /** @type {HTMLElement | null} */
  let earlierNote = null;
  /** @type {HTMLElement | null} */
  let laterNote = null;
  /** @type {HTMLElement | null} */
  let lastPage = null;  // the page new lines go to, while it has room

  function clear() {
    lines = [{ stream: "stdout", text: "", node: null }];
    earlier = { lines: 0, chars: 0 };
    later = { lines: 0, chars: 0 };
    chars = 0;
    fresh = 0;
    removed = [];
    earlierNote = laterNote = lastPage = null;
    pre.textContent = "";
    pre.hidden = true;
  }
  function trim() {
    if (lines.length > MAX_LINES + 1) {
      const gone = lines.splice(0, lines.length - MAX_LINES - 1);
      earlier.lines += gone.length;
      fresh = Math.max(0, fresh - gone.length);
      for (const line of gone) if (line.node) removed.push(line.node);
    }
  }
  /** @param {Array<[string, string]>} chunks @param {number} [moreLines] @param {number} [moreChars] */
  function add(chunks, moreLines = 0, moreChars = 0) {
    later.lines += moreLines;
    later.chars += moreChars;
    for (const chunk of chunks) {
      const stream = chunk[0] === "stderr" ? "stderr" : "stdout";
      const whole = String(chunk[1]), text = whole.slice(0, Math.max(0, MAX_CHARS - chars));
      if (text.length < whole.length) {  // past the run's cap: counted, not kept
        later.chars += whole.length - text.length;
        later.lines += whole.split("\n").length - text.split("\n").length;
      }
      if (!text) continue;
      const pieces = text.split("\n"), last = lines[lines.length - 1];  // the open line (no newline yet)
      fresh = Math.min(fresh, lines.length - 1);
      if (last.text === "") last.stream = stream;
      if (last.stream === stream) last.text += pieces[0];
      else lines.push({ stream, text: pieces[0], node: null });
      const skipped = Math.max(0, pieces.length - 2 - MAX_LINES);  // new lines that would be trimmed at once
      earlier.lines += skipped;
      for (let i = 1 + skipped; i < pieces.length; i++) lines.push({ stream, text: pieces[i], node: null });
      chars += text.length;
      trim();
    }
    if (!drawing) drawing = window.requestAnimationFrame(draw);
  }
  function laterText() {
    return "… " + count(later, "more") + " not shown (a program's output stops at " + MAX_CHARS.toLocaleString("en") + " characters)";
  }
  function draw() {
    drawing = 0;
    for (const node of removed) detach(node);
    removed = [];
    let room = DRAW_CHARS, i = fresh;
    for (; i < lines.length && room > 0; i++) {
      const line = lines[i];
      if (i === lines.length - 1 && line.text === "") {  // an open line with nothing yet: not shown
        if (line.node) detach(line.node);
        line.node = null;
        continue;
      }
      if (!line.node) {
        if (!lastPage || !lastPage.isConnected || lastPage.childElementCount >= PAGE_LINES) pre.insertBefore((lastPage = page()), laterNote);
        lastPage.appendChild((line.node = document.createElement("span")));
      }
      if (line.stream === "stderr") line.node.className = "gg-pg-stderr";
      else line.node.removeAttribute("class");
      line.node.textContent = line.text + "\n";
      room -= line.text.length + 1;
    }
    fresh = Math.min(i, lines.length - 1);
    if (i < lines.length) drawing = window.requestAnimationFrame(draw);  // the rest, in the next frames
    if ((earlier.lines || earlier.chars) && !earlierNote) pre.insertBefore((earlierNote = note("")), pre.firstChild);
    if (earlierNote) earlierNote.textContent = "… " + count(earlier, "earlier") + " not shown (the last " + MAX_LINES.toLocaleString("en") + " lines are kept)\n";
    if ((later.lines || later.chars) && !laterNote) pre.appendChild((laterNote = note("")));
    if (laterNote) laterNote.textContent = laterText() + "\n";
    pre.hidden = !pre.firstChild;
  }
  clear();
  return { clear, add };
}
