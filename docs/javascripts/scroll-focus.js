// Material wraps each table in a box that scrolls sideways when the table is wider than the page;
// a box that scrolls can be reached with the keyboard (Tab, then the arrow keys), as WCAG asks.
import { everyPage } from "./page.js";

everyPage(() => {
  for (const box of document.querySelectorAll(".md-typeset__scrollwrap")) {
    if (box instanceof HTMLElement && box.scrollWidth > box.clientWidth) box.tabIndex = 0;
  }
});
