// ESLint flat config. Issue 13: no regular expression may backtrack
// super-linearly (eslint-plugin-regexp); the rest of the lint set follows.
import regexp from "eslint-plugin-regexp";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build/**", ".react-router/**", "node_modules/**", ".tmp/**", "data/**", "test-results/**", "playwright-report/**"] },
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    languageOptions: { parser: tseslint.parser },
    plugins: { regexp },
    rules: {
      ...regexp.configs["flat/recommended"].rules,
      "regexp/no-super-linear-backtracking": ["error", { report: "potential" }],
      "regexp/no-super-linear-move": "error",
    },
  },
);
