// ESLint flat config (issue 14): typescript-eslint with type information,
// React hooks, jsx-a11y, and eslint-plugin-regexp, whose checks keep out
// patterns that can freeze the server (issue 13). `npm run lint`, which
// `npm test` runs, allows no warning.
import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import regexp from "eslint-plugin-regexp";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "build/**",
      ".react-router/**",
      "node_modules/**",
      ".tmp/**",
      "data/**",
      "test-results/**",
      "playwright-report/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  regexp.configs["flat/recommended"],
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node, ...globals.browser },
    },
    rules: {
      "regexp/no-super-linear-backtracking": ["error", { report: "potential" }],
      "regexp/no-super-linear-move": "error",
      // One import statement per module (type imports included, as `type X` specifiers).
      "no-duplicate-imports": "error",
      // React Router's loaders and actions answer by throwing a Response
      // (and the helpers they await reject with one).
      "@typescript-eslint/only-throw-error": ["error", { allow: [{ from: "lib", name: "Response" }] }],
      "@typescript-eslint/prefer-promise-reject-errors": ["error", { allow: [{ from: "lib", name: "Response" }] }],
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
    },
  },
  { files: ["**/*.tsx"], ...jsxA11y.flatConfigs.recommended },
  {
    // The admin posts table becomes a stack of cards on phones (display: block
    // and flex on its parts), and some browsers (WebKit) then drop its table
    // semantics. Its explicit roles (table, rowgroup, row, columnheader, cell)
    // keep it a table for assistive technology: they are deliberate, not
    // redundant, and a td with role="cell" is not an interactive element.
    files: ["**/*.tsx"],
    rules: {
      "jsx-a11y/no-redundant-roles": ["error", { thead: ["rowgroup"], tbody: ["rowgroup"] }],
      "jsx-a11y/no-interactive-element-to-noninteractive-role": [
        "error",
        { tr: ["none", "presentation"], canvas: ["img"], td: ["cell"] },
      ],
    },
  },
  // React code lives in app/ only. Elsewhere a `use` is not React's: Playwright
  // fixtures (tests/e2e) hand their value to a callback named `use`.
  { files: ["app/**/*.{ts,tsx}"], plugins: { "react-hooks": reactHooks }, rules: reactHooks.configs.recommended.rules },
  {
    // Kysely's own rule for migrations: they take Kysely<any>, never the
    // current schema's types, so a shipped migration never changes with them.
    files: ["app/server/db/migrations/*.server.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // A function or component is read at once (ADR 051): about a screen. A
    // test's describe block is a list of cases, not a function to read whole.
    files: ["app/**/*.{ts,tsx}", "server/**/*.ts", "scripts/**/*.{js,mjs}"],
    ignores: ["**/*.test.{ts,tsx}"],
    rules: { "max-lines-per-function": ["error", { max: 150, skipBlankLines: true, skipComments: true }] },
  },
  {
    // Tests read JSON answers whose shape is what they check.
    files: ["**/*.test.{ts,tsx}", "tests/**/*.ts"],
    rules: {
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-explicit-any": "off",
    },
  },
  { files: ["**/*.{js,mjs}"], ...tseslint.configs.disableTypeChecked },
);
