// The 404 page's search: the site's policy lets no form send anything (form-action 'none'), so its form opens
// the home page with the query in the address (?q=...), where the theme's search opens with it.
import { everyPage } from "./page.js";

everyPage(() => {
  const form = document.querySelector("form.gg-not-found-search");
  if (!(form instanceof HTMLFormElement) || form.dataset.ggReady) return;
  form.dataset.ggReady = "1";
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const address = new URL(form.action);
    address.search = new URLSearchParams({ q: String(new FormData(form).get("q") || "") }).toString();
    window.location.assign(address.href);
  });
});
