// @ts-check
// The lab's one door to python-session.js. It uses exactly two of its functions: python.open({modules,
// onStatus}) (lab mode; of the lab it returns: call(name, args), close() and the flag closed) and
// python.sanitize(html, prefix). Calls wait in line here: the lab's Python takes one at a time.

/** The Python module whose functions the page calls (src/glassgrad_site/lab/page.py). */
export const MODULE = "glassgrad_site.lab.page";

/**
 * @typedef {{call: (name: string, args: unknown[]) => Promise<any>, close: () => void, closed: boolean}} OpenedLab
 * @typedef {{open: (options: {modules: string[], onStatus: (text: string) => void}) => Promise<OpenedLab>,
 *   sanitize: (html: string, prefix: string) => Promise<DocumentFragment>}} PythonSession
 */

/** @returns {PythonSession | undefined} python-session.js, when it loaded. */
function session() {
  return /** @type {any} */ (window).glassgrad?.python;
}

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
    const python = session();
    if (!python || !python.open) return Promise.reject(new Error("the page's Python module did not load"));
    this.opening = python.open({ modules: [MODULE], onStatus: this.onStatus }).then(
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

/**
 * The worker's HTML, sanitized (python-session.js's one way for a worker's HTML to reach the page).
 * @param {string} html
 * @param {string} prefix
 * @returns {Promise<DocumentFragment>}
 */
export function sanitize(html, prefix) {
  const python = session();
  if (!python) return Promise.reject(new Error("the page's Python module did not load"));
  return python.sanitize(html, prefix);
}
