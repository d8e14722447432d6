// ESLint (flat config): the recommended rules over the site's JavaScript, its tests and this file.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["docs/assets/**", "site/**", "node_modules/**", ".venv/**", "build/**", "dist/**"] },
  js.configs.recommended,
  {
    files: ["docs/javascripts/**/*.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.browser } },
  },
  {
    files: ["docs/javascripts/python-worker.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.worker } },
  },
  {
    files: ["src/glassgrad/viz/glassgrad.js"],  // a classic script: Jupyter inlines it
    languageOptions: { sourceType: "script", globals: { ...globals.browser } },
  },
  {
    files: ["tests/js/**/*.js", "eslint.config.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.node } },
  },
];
