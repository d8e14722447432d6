// console.js: a program's printed output in a <pre>: the latest MAX_LINES lines and MAX_CHARS characters,
// drawn at most once per frame. What the page leaves out is the earliest (noted on top); what Python left
// out, past its cap, the latest (noted below).
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

  function clear() {
    lines = [{ stream: "stdout", text: "" }];
    earlier = { lines: 0, chars: 0 };
    later = { lines: 0, chars: 0 };
    chars = 0;
    pre.textContent = "";
    pre.hidden = true;
  }
  function trim() {
    if (lines.length > MAX_LINES + 1) {
      const gone = lines.splice(0, lines.length - MAX_LINES - 1);
      earlier.lines += gone.length;
      for (const line of gone) chars -= line.text.length;
    }
    while (chars > MAX_CHARS) {  // the earliest lines go, and of the earliest line kept, its start
      const first = lines[0], excess = chars - MAX_CHARS;
      if (first.text.length > excess || lines.length === 1) {
        first.text = first.text.slice(excess); chars -= excess; earlier.chars += excess;
      } else {
        lines.shift(); earlier.lines += 1; chars -= first.text.length;
      }
    }
  }
  /** @param {Array<[string, string]>} chunks @param {number} [moreLines] @param {number} [moreChars] */
  function add(chunks, moreLines = 0, moreChars = 0) {
    later.lines += moreLines;
    later.chars += moreChars;
    for (const chunk of chunks) {
      const stream = chunk[0] === "stderr" ? "stderr" : "stdout";
      String(chunk[1]).split("\n").forEach((piece, i) => {
        const last = lines[lines.length - 1];  // the open line (not ended by a newline yet)
        if (i === 0 && last.text === "") last.stream = stream;
        if (i === 0 && last.stream === stream) last.text += piece;
        else lines.push({ stream, text: piece });
        chars += piece.length;
      });
      trim();
    }
    if (!drawing) drawing = window.requestAnimationFrame(draw);
  }
  function draw() {
    drawing = 0;
    const shown = lines[lines.length - 1].text === "" ? lines.slice(0, -1) : lines;
    const box = document.createDocumentFragment();
    if (earlier.lines || earlier.chars) box.appendChild(note("… " + count(earlier, "earlier") + " not shown (the last " + MAX_LINES.toLocaleString("en") + " lines are kept)"));
    for (const line of shown) {
      const span = document.createElement("span");
      if (line.stream === "stderr") span.className = "gg-pg-stderr";
      span.textContent = line.text + "\n";
      box.appendChild(span);
    }
    if (later.lines || later.chars) box.appendChild(note("… " + count(later, "more") + " not shown (a program's output stops at " + MAX_CHARS.toLocaleString("en") + " characters)"));
    const empty = !box.childNodes.length;  // (read before appending: a fragment empties into its parent)
    pre.textContent = "";
    pre.appendChild(box);
    pre.hidden = empty;
  }
  clear();
  return { clear, add };
}
