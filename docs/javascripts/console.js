// console.js: a program's printed output in a <pre>: of a run's first MAX_CHARS characters (the worker sends
// no more, and past them the page takes none), the latest MAX_LINES lines, drawn at most once per frame. Each
// batch costs in proportion to its own size. What the page leaves out is the earliest lines (noted on top);
// what was cut past the cap, the latest (noted below).
//
//   const printed = outputConsole(pre);   printed.clear(); printed.add(chunks, droppedLines, droppedChars)
//   chunks: [["stdout" | "stderr", text], ...] as python-session.js's onOutput receives them.

export const MAX_LINES = 2000;
export const MAX_CHARS = 200000;

/** @typedef {{stream: "stdout" | "stderr", text: string}} Line */

/** @param {{lines: number, chars: number}} left @param {string} which  "earlier" or "more" */
function count(left, which) {
  const parts = [];
  if (left.lines) parts.push(left.lines.toLocaleString("en") + " " + which + " line" + (left.lines === 1 ? "" : "s"));
  if (left.chars) parts.push(left.chars.toLocaleString("en") + " character" + (left.chars === 1 ? "" : "s"));
  return parts.join(" and ");
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
  let changed = false;  // lines came since the last drawing (else only the counts below them are redrawn)
  /** @type {HTMLElement | null} */
  let laterNote = null;

  function clear() {
    lines = [{ stream: "stdout", text: "" }];
    earlier = { lines: 0, chars: 0 };
    later = { lines: 0, chars: 0 };
    chars = 0;
    changed = false;
    laterNote = null;
    pre.textContent = "";
    pre.hidden = true;
  }
  function trim() {
    if (lines.length > MAX_LINES + 1) {
      const gone = lines.splice(0, lines.length - MAX_LINES - 1);
      earlier.lines += gone.length;
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
      changed = true;
      const pieces = text.split("\n"), last = lines[lines.length - 1];  // the open line (no newline yet)
      if (last.text === "") last.stream = stream;
      if (last.stream === stream) last.text += pieces[0];
      else lines.push({ stream, text: pieces[0] });
      const skipped = Math.max(0, pieces.length - 2 - MAX_LINES);  // new lines that would be trimmed at once
      earlier.lines += skipped;
      for (let i = 1 + skipped; i < pieces.length; i++) lines.push({ stream, text: pieces[i] });
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
    if (!changed && (laterNote || !(later.lines || later.chars)) && !pre.hidden) {  // only the count grew
      if (laterNote) laterNote.textContent = laterText() + "\n";
      return;
    }
    changed = false;
    const shown = lines[lines.length - 1].text === "" ? lines.slice(0, -1) : lines;
    const box = document.createDocumentFragment();
    if (earlier.lines || earlier.chars) box.appendChild(note("… " + count(earlier, "earlier") + " not shown (the last " + MAX_LINES.toLocaleString("en") + " lines are kept)"));
    for (const line of shown) {
      const span = document.createElement("span");
      if (line.stream === "stderr") span.className = "gg-pg-stderr";
      span.textContent = line.text + "\n";
      box.appendChild(span);
    }
    laterNote = later.lines || later.chars ? box.appendChild(note(laterText())) : null;
    const empty = !box.childNodes.length;  // (read before appending: a fragment empties into its parent)
    pre.textContent = "";
    pre.appendChild(box);
    pre.hidden = empty;
  }
  clear();
  return { clear, add };
}
