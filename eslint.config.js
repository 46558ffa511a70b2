// eslint's flat config for the front end (make lint): the recommended rules over every page script in
// static/js (classic scripts, browser globals) and the Node.js unit tests in tests/js (docs/frontend.md).
const js = require("@eslint/js");
const globals = require("globals");

module.exports = [
  { ignores: ["node_modules/", "staticfiles/", ".venv/"] },
  js.configs.recommended,
  {
    files: ["static/js/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "script",
      globals: {
        ...globals.browser,
        // Django's JavaScript catalog (/jsi18n/), the morph library and the shared module, all loaded first.
        gettext: "readonly",
        ngettext: "readonly",
        pgettext: "readonly",
        interpolate: "readonly",
        Idiomorph: "readonly",
      },
    },
    rules: {
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
    },
  },
  {
    files: ["tests/**/*.js", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "commonjs", globals: { ...globals.node } },
  },
];
