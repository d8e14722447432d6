// @ts-check
// The lab's one door to the page's Python: python-lab-mode.js's open({modules, onStatus}) (of the lab it
// returns: call(name, args), close() and the flag closed) and sanitizer.js's sanitize(html, prefix). Calls wait
// in line here: the lab's Python takes one at a time.
import { open } from "../python-lab-mode.js";

export { sanitize } from "../sanitizer.js";

/** The Python module whose functions the page calls (src/glassgrad_site/lab/page.py). */
export const MODULE = "glassgrad_site.lab.page";

/** @typedef {import("../python-lab-mode.js").Lab} OpenedLab */

/** The lab page's one long-lived Python, opened on demand; calls are queued, one at a time. */
export class LabPython {
  /** @param {(text: string) => void} onStatus hears the loading progress ("Downloading Python: 3.1 of 9.6 MB…"). */
  constructor(onStatus) {
    this.onStatus = onStatus;
    /** @type {OpenedLab | null} */
    this.lab = null;
    /** @type {Promise<OpenedLab> | null} */
    this.opening = null;
    this.left = false;
    /** @type {Promise<unknown>} */
    this.chain = Promise.resolve();
  }

  /** @returns {boolean} whether Python is loaded and open. */
  get ready() {
    return Boolean(this.lab && !this.lab.closed);
  }

  /**
   * Open the lab's Python (once; again after it died).
   * @returns {Promise<OpenedLab>}
   */
  open() {
    if (this.lab && !this.lab.closed) return Promise.resolve(this.lab);
    if (this.opening) return this.opening;
    this.opening = open({ modules: [MODULE], onStatus: this.onStatus }).then(
      (opened) => {
        this.opening = null;
        if (this.left) {
          opened.close();
          throw new Error("left the page");
        }
        this.lab = opened;
        return opened;
      },
      (error) => {
        this.opening = null;
        throw error;
      },
    );
    return this.opening;
  }

  /**
   * Call `glassgrad_site.lab.page.<name>(*args)` after the calls already in line.
   * @param {string} name
   * @param {unknown[]} [args]
   * @returns {Promise<any>}
   */
  call(name, args = []) {
    const answer = this.chain.then(() => this.open()).then((lab) => lab.call(`${MODULE}.${name}`, args));
    this.chain = answer.catch(() => undefined);
    return answer;
  }

  /** After a failure: forget a Python that died, so the next call opens a new one. */
  forgetIfDead() {
    if (this.lab && this.lab.closed) this.lab = null;
  }

  /** The page is left: end its Python. */
  close() {
    this.left = true;
    if (this.lab) this.lab.close();
    this.lab = null;
  }
}
