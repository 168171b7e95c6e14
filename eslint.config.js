// ESLint: a modest correctness rule set (JavaScript's and typescript-eslint's recommended, without
// the rules that would only churn existing code) and, the point of this file, the layer rules:
// which folder may import which. docs/architecture.md draws the same layers; change both together.
//
// The layer rules are `no-restricted-imports` patterns over the import's text. An import within a
// folder is relative ("./x.ts", "./deployments/index.ts"); one that climbs out names its target
// from the root through an alias of package.json "imports" ("#server/db/index.ts", "#shared/rules.ts",
// "#app/lib/forms.ts"), so a pattern names the layer it reaches. The web's own `.server/` folder is
// not `server/` (the segment differs). Tests may climb to tests/support relatively.
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

/** An import reaching one of server/'s folders or top-level modules. */
const serverPart = (names) => `^#server/(${names})(/|\\.ts$)`;
// The folders and top-level modules of server/ that are roles or wiring.
const ROLES = "api|gateway|http|terminal|worker|platform|cli";
/** Every file below app/, cli/, server/ and shared/: climbing out of a folder goes through an alias. */
const CLIMB = ["^(\\.\\./)+(?!\\.\\./)(?!tests/)", "An import that climbs out of its folder names its target from the root: #app/..., #server/..., #shared/... (package.json \"imports\")."];
const NO_WEB = ["^#app/", "server/ does not import the web (app/); server.ts loads the web's build."];

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
  layer(["app/**"], [CLIMB, ["^#server/|(^|/)server/", "app/ imports only shared/ and its own code: reach the server through the API client."]]),
  // shared/ is the leaf both sides import.
  layer(["shared/**"], [CLIMB, ["^#(app|server)/|(^|/)(app|server)/", "shared/ is a leaf: it imports nothing from app/ or server/."]]),
  // The player CLI (package.json "bin") reaches the platform over HTTP only, like any client:
  // the contract's shapes and schemas (shared/) and its own code.
  layer(["cli/**"], [CLIMB, ["^#(app|server)/|(^|/)(app|server)/", "cli/ talks to the platform over HTTP: it imports only shared/ (the contract) and its own code."]]),
  // Nothing on the server imports the web.
  // (ESLint keeps the last setting of a rule for a file: each layer below repeats CLIMB and NO_WEB.)
  layer(["server/**"], [CLIMB, NO_WEB]),
  layer(["server.ts"], [NO_WEB, ["^\\./app/", NO_WEB[1]]]),
  // The domain does not know its transports.
  layer(["server/core/**"], [CLIMB, NO_WEB, [serverPart(ROLES), "server/core is the domain: no HTTP, WebSocket, SSH or wiring (api, gateway, live, http, worker, platform)."]]),
  // The runtime and the database are the bottom: they know no domain and no transport.
  layer(["server/runtime/**"], [CLIMB, NO_WEB, [serverPart(`core|db|${ROLES}`), "server/runtime drives the engine only: it imports neither core nor db (nor a transport)."]]),
  layer(["server/db/**"], [CLIMB, NO_WEB, [serverPart(`core|runtime|library|${ROLES}`), "server/db is storage only: it imports neither core nor api (nor runtime or a transport)."]]),
);
