// @ts-check
// The curves under the plane: a measure per step on the training and on the test points.
import { sized } from "./plane.js";

/**
 * Draw one measure's two lines (training: solid, test: dashed) over the steps so far.
 * @param {HTMLCanvasElement} canvas
 * @param {{ink: string, light: string, accent: string}} colours  the page's palette (plane.js's `palette`)
 * @param {number[][]} history  per step: [step, train loss, test loss, train accuracy, test accuracy]
 * @param {number} train  the column of the training line
 * @param {number} test  the column of the test line
 * @param {boolean} share  a share from 0 to 1 (accuracy) rather than a loss
 */
export function curve(canvas, colours, history, train, test, share) {
  const box = sized(canvas), c = box.context, pad = 34; // room for "100%" left of the axis
  c.clearRect(0, 0, box.width, box.height);
  const ink = colours.light;
  let top = share ? 1 : 0;
  if (!share) for (const row of history) top = Math.max(top, row[train] || 0, row[test] || 0);
  top = top || 1;
  c.strokeStyle = ink; c.fillStyle = ink; c.lineWidth = 1; c.font = "11px sans-serif";
  c.beginPath(); c.moveTo(pad, 4); c.lineTo(pad, box.height - 16); c.lineTo(box.width - 4, box.height - 16); c.stroke();
  c.textBaseline = "top";
  c.fillText(share ? "100%" : String(Number(top.toPrecision(2))), 0, 2);
  c.textBaseline = "alphabetic";
  c.fillText("0", pad - 10, box.height - 18);
  const steps = history.length ? history[history.length - 1][0] : 0;
  c.fillText(`step ${steps}`, box.width - 60, box.height - 3);
  /** @type {[number, string, number[]][]} */
  const lines = [[train, colours.ink, []], [test, colours.accent, [5, 3]]];
  for (const [column, colour, dash] of lines) {
    c.beginPath(); c.strokeStyle = colour; c.lineWidth = 2; c.setLineDash(dash);
    const stride = Math.max(1, Math.ceil(history.length / box.width)); // at most a point per pixel
    for (let k = 0; k < history.length; k += stride) {
      const x = pad + (history.length < 2 ? 0 : k / (history.length - 1)) * (box.width - pad - 6);
      const y = 4 + (1 - history[k][column] / top) * (box.height - 22);
      if (k) c.lineTo(x, y); else c.moveTo(x, y);
    }
    c.stroke();
  }
  c.setLineDash([]);
}
