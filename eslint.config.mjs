// ESLint for the browser app's JavaScript (ES modules, run in the browser): the recommended
// rules and no line over 110 characters. scripts/test runs it after `npm ci`.
import js from "@eslint/js";
import stylistic from "@stylistic/eslint-plugin";
import globals from "globals";

export default [
  { ignores: ["**/node_modules/", ".venv/"] },
  {
    // the shared modules in static/js/ and each feature's folder beside it (static/<feature>/)
    files: ["src/meeple/web/static/**/*.js"],
    ...js.configs.recommended,
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: globals.browser,
    },
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    plugins: { "@stylistic": stylistic },
    rules: {
      "@stylistic/max-len": ["error", { code: 110, tabWidth: 2 }],
    },
  },
  {
    // the boardgame.io side of bench_server.py: Node scripts (CommonJS)
    files: ["benchmarks/boardgameio/*.cjs"],
    ...js.configs.recommended,
    languageOptions: { sourceType: "commonjs", globals: globals.node },
    plugins: { "@stylistic": stylistic },
    rules: { "@stylistic/max-len": ["error", { code: 110, tabWidth: 2 }] },
  },
  {
    files: ["eslint.config.mjs"],
    ...js.configs.recommended,
    languageOptions: { sourceType: "module", globals: globals.node },
  },
];
