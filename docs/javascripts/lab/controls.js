// @ts-check
// The settings' controls: they show the run's (checked) settings and report a reader's change as new settings.
import { shown } from "./state.js";

/** The lab's inputs (data-lab-set), feature boxes (data-lab-feature) and the Stop-after field. */
export class Controls {
  /**
   * @param {HTMLElement} root
   * @param {Record<string, any>} defaults  which settings are lists (sent as lists of text)
   * @param {(change: Record<string, any>) => void} changed  hears the settings a change asks for
   */
  constructor(root, defaults, changed) {
    /** @type {Record<string, HTMLInputElement>} */
    this.inputs = {};
    root.querySelectorAll("[data-lab-set]").forEach((el) => {
      this.inputs[/** @type {HTMLElement} */ (el).dataset.labSet || ""] = /** @type {HTMLInputElement} */ (el);
    });
    /** @type {HTMLInputElement[]} */
    this.features = Array.from(root.querySelectorAll("[data-lab-feature]"));
    for (const [key, input] of Object.entries(this.inputs)) {
      if (key === "stop") continue;
      input.addEventListener("change", () => {
        const value = Array.isArray(defaults[key]) ? input.value.split(/[\s,]+/).filter(Boolean) : input.value;
        // New points: the points added or removed by hand belonged to the old ones.
        const fresh = ["data", "size", "noise", "seed", "ratio"].includes(key) ? { added: [], removed: [] } : {};
        changed({ [key]: value, ...fresh });
      });
    }
    for (const box of this.features) {
      box.addEventListener("change", () => {
        changed({ features: this.features.filter((b) => b.checked).map((b) => b.dataset.labFeature) });
      });
    }
  }

  /** @param {Record<string, any>} settings */
  show(settings) {
    for (const [key, input] of Object.entries(this.inputs)) if (key !== "stop" && key in settings) input.value = shown(settings[key]);
    for (const box of this.features) box.checked = settings.features.includes(box.dataset.labFeature);
  }

  /** @returns {number} the step to stop after (0: never) */
  stopAt() {
    const n = Number(this.inputs.stop.value);
    return Number.isInteger(n) && n > 0 ? n : 0;
  }
}
