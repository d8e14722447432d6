// @ts-check
// What the page says about a run, in words and numbers: the measures line, the plane's caption, Inspect's text.
import { fixed, short } from "./state.js";

/** @type {Record<string, string>} */
const REGULARISERS = { l1: "L1", l2: "L2" };

/**
 * The line of measures under the status: train and test loss, accuracy, the step's loss in its two parts, speed.
 * @param {Record<string, any>} run
 * @param {number} perSecond  steps per second lately (0: not training)
 */
export function measures(run, perSecond) {
  const parts = [`training loss ${fixed(run.train_loss, 4)}`, `test loss ${fixed(run.test_loss, 4)}`];
  if (run.train_accuracy !== null && run.train_accuracy !== undefined) {
    parts.push(`accuracy ${Math.round(run.train_accuracy * 100)}% training, ${Math.round(run.test_accuracy * 100)}% test`);
  }
  const reg = REGULARISERS[run.settings.reg];
  if (run.loss !== null && run.loss !== undefined) {
    parts.push(reg && run.settings.reg_rate ? `the step's loss ${fixed(run.loss, 4)} = data loss ${fixed(run.data_loss, 4)} + ${reg} term ${short(run.reg_loss)}` : `the step's loss ${fixed(run.loss, 4)} (data loss, no regularisation)`);
  }
  if (perSecond > 0) parts.push(`${perSecond.toFixed(1)} steps/s`);
  return parts.join(" · ");
}

/** @param {string} task */
export function planeCaption(task) {
  const ground = task === "classes"
    ? "the background is the class the model picks: blue 0, orange 1, green 2 (paler where it is less sure)"
    : task === "regression"
      ? "each point's colour is the sign of its target, and the background is the model's prediction: blue below 0, orange above (stronger the larger)"
      : "the background is the model's score, blue where it says −1, orange where it says +1";
  return `The plane: training points as filled dots, test points as rings; ${ground}.`;
}

/**
 * The label of a point, in words.
 * @param {string} task
 * @param {number} label
 */
export function labelText(task, label) {
  if (task === "classes") return `class ${label} (${["blue", "orange", "green"][label]})`;
  if (task === "regression") return `target ${short(label)}`;
  return label < 0 ? "−1 (blue)" : "+1 (orange)";
}

/**
 * The paragraph above the inspected graph: which example, its loss, and what the boxes are.
 * @param {Record<string, any>} answer  what glassgrad_site.lab.page.inspect answered
 * @param {Record<string, any>} run
 */
export function inspectText(answer, run) {
  const scores = run.task === "classes" ? "the three scores" : "the score s";
  const hinge = run.settings.loss === "hinge" ? ": the point is already on its side by a margin of at least 1, where the hinge is flat," : ",";
  const zero = answer.loss === 0
    ? ` Its loss is exactly 0${hinge} so every gradient below is 0: this point does not move the weights at this step.`
    : "";
  const open = typeof answer.neurons === "string" ? ` except ${answer.neurons}, drawn as its Values (its weights, its bias, its weighted sum z and its activation)` : "";
  const inside = answer.neurons
    ? ` Values: the point's inputs, each neuron as one box (Ln.k: its weighted sum and its activation together, its weights and bias folded in)${open}, ${scores} and the loss's own nodes; ${answer.links} ParentLinks. A link into a neuron holds that neuron's ∂h/∂x = act′(z)·w: the two links it stands for, multiplied.`
    : ` Values: the point's inputs, the ${run.names.length} parameters, what the network computed from them up to ${scores}, and the loss's own nodes; ${answer.links} ParentLinks, each with its local derivative.`;
  return `Training point ${answer.index} at (${short(answer.point[0])}, ${short(answer.point[1])}), label ${labelText(run.task, answer.label)}, at step ${run.step}: its loss is ${short(answer.loss)}.${zero} The graph has ${answer.values}${inside} The grads are this example's loss differentiated alone: its share of the step's gradient, before averaging and regularisation.`;
}
