// eslint (flat config): the recommended rules of eslint and typescript-eslint over every source file.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "coverage/", "**/*.d.ts"] },
  js.configs.recommended,
  tseslint.configs.recommended,
  // A disable comment that no longer disables anything is an error: it would hide the next real finding.
  { linterOptions: { reportUnusedDisableDirectives: "error" } },
  {
    rules: {
      // A type is imported as one: the bundle never loads a module for its types alone (`typeof import(…)`
      // stays allowed: it names a lazily loaded module without loading it).
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports", disallowTypeAnnotations: false }],
      // `const { secret: _, ...rest } = x` is how a field is left out of a copy.
      "@typescript-eslint/no-unused-vars": ["error", { ignoreRestSiblings: true }],
      // Sanitizers and their tests match control characters on purpose (text shown to a model, log lines).
      "no-control-regex": "off",
    },
  },
  {
    // Tests read parsed JSON bodies by path; `any` there is the shape of an assertion, not of the product.
    files: ["test/**", "harness/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // Build scripts in plain JavaScript run on Node.
    files: ["**/*.mjs", "**/*.js"],
    languageOptions: { globals: { Buffer: "readonly", console: "readonly", process: "readonly", URL: "readonly" } },
  },
);
