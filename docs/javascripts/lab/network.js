// @ts-check
// The network's numbers: the table of every parameter (its value, its gradient, its last update).
import { short } from "./state.js";

/** The parameter table, rebuilt when the model changes, filled only while it is open. */
export class ParameterTable {
  /**
   * @param {HTMLDetailsElement} details
   * @param {HTMLElement} body  its tbody
   */
  constructor(details, body) {
    this.details = details;
    this.body = body;
    /** @type {HTMLElement[][]} */
    this.rows = [];
  }

  /**
   * @param {Record<string, any>} run  names, weights, grads, updates (glassgrad_site.lab.page.start / step)
   * @param {boolean} rebuild
   */
  fill(run, rebuild) {
    if (rebuild || this.rows.length !== run.names.length) {
      this.body.textContent = "";
      this.rows = run.names.map((/** @type {string} */ name) => {
        const tr = document.createElement("tr"), cells = [];
        const th = document.createElement("th");
        th.scope = "row"; th.textContent = name; tr.appendChild(th);
        for (let k = 0; k < 3; k++) { const td = document.createElement("td"); tr.appendChild(td); cells.push(td); }
        this.body.appendChild(tr);
        return cells;
      });
    }
    if (!this.details.open) return;
    this.rows.forEach((cells, k) => {
      cells[0].textContent = short(run.weights[k]);
      cells[1].textContent = short(run.grads[k]);
      cells[2].textContent = short(run.updates[k]);
    });
  }
}
