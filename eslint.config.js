// ESLint: a modest correctness rule set (JavaScript's and typescript-eslint's recommended, without
// the rules that would only churn existing code) and, the point of this file, the layer rules:
// which folder may import which. docs/architecture.md draws the same layers; change both together.
//
// The layer rules are `no-restricted-imports` patterns over the import's text. Imports are
// relative ("../../server/db/index.ts"), so a pattern names the folder as a path segment; the web's
// own `.server/` folder is not `server/` (the segment differs).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/** One layer rule: files matching `files` may not import what `forbidden` describes. */
const layer = (files, forbidden) => ({
  files,
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: forbidden.map(([regex, message]) => ({ regex, message })),
      },
    ],
  },
});

// A relative import reaching a folder of server/ from anywhere below it ("../api/x.ts",
// "../../api/x.ts") or through the repository root ("../../server/api/x.ts").
const serverPart = (names) => `^(\\.\\./)+(server/)?(${names})(/|\\.ts$|$)`;
// Top-level modules of server/ that are roles or wiring, not folders.
const ROLES = "api|gateway|live|http|worker|platform|cli|healthz";

export default tseslint.config(
  {
    ignores: ["build/**", "bench/bare/build/**", "bench/bare/.react-router/**", "node_modules/**", "test-results/**", "screenshots/**", ".react-router/**", "data/**", "playwright-report/**", ".tmp/**"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: "module" },
    linterOptions: { reportUnusedDisableDirectives: "off" },
    rules: {
      // TypeScript checks names and globals itself (tsc --noEmit runs in the same pipeline).
      "no-undef": "off",
      // The API client and tests read untyped JSON; `any` there is a choice, not a slip.
      "@typescript-eslint/no-explicit-any": "off",
      // Control characters in patterns are deliberate (terminal escapes, NUL in file names).
      "no-control-regex": "off",
      // Errors rethrown with a message of our own keep the original's text in it already.
      "preserve-caught-error": "off",
      // An empty catch says "best effort" where it stands; a name starting with _ is unused on purpose.
      "no-empty": ["error", { allowEmptyCatch: true }],
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true },
      ],
    },
  },

  // ---- the layers (docs/architecture.md, "What may import what")
  // The web reaches the server only through the API (app/.server/api-client.ts) and the load
  // context; it shares only shared/.
  layer(["app/**"], [["(^|/)server/", "app/ imports only shared/ and its own code: reach the server through the API client."]]),
  // shared/ is the leaf both sides import.
  layer(["shared/**"], [["(^|/)(app|server)/", "shared/ is a leaf: it imports nothing from app/ or server/."]]),
  // Nothing on the server imports the web.
  layer(["server/**", "server.ts"], [["^(\\.\\./)+(app)/|^\\./app/", "server/ does not import the web (app/); server.ts loads the web's build."]]),
  // The domain does not know its transports.
  layer(["server/core/**"], [[serverPart(ROLES), "server/core is the domain: no HTTP, WebSocket, SSH or wiring (api, gateway, live, http, worker, platform)."]]),
  // The runtime and the database are the bottom: they know no domain and no transport.
  layer(["server/runtime/**"], [[serverPart(`core|db|${ROLES}`), "server/runtime drives the engine only: it imports neither core nor db (nor a transport)."]]),
  layer(["server/db/**"], [[serverPart(`core|runtime|${ROLES}`), "server/db is storage only: it imports neither core nor api (nor runtime or a transport)."]]),
);
