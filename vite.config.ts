import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";

/**
 * zod 4 probes `new Function` when it builds an object schema, to compile faster parsers. The
 * pages' Content-Security-Policy has no 'unsafe-eval', so the browser reports the probe as a
 * violation even though zod catches the error (tests/e2e/access.spec.ts, "pages hydrate under the
 * policy"). In the browser bundle zod starts jitless: the same results, no probe. The server,
 * which loads zod outside this bundle, keeps its compiled parsers.
 */
function zodJitlessInBrowser(): Plugin {
  return {
    name: "zod-jitless-in-browser",
    applyToEnvironment: (environment) => environment.name === "client",
    transform(code, id) {
      if (!/[\\/]zod[\\/]v4[\\/]core[\\/]core\.js$/.test(id)) return null;
      return `(globalThis.__zod_globalConfig ??= {}).jitless = true;\n${code}`;
    },
  };
}

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), zodJitlessInBrowser()],
  // Native and server-only packages stay outside the SSR bundle.
  ssr: { external: ["better-sqlite3", "pg", "ssh2", "@node-rs/argon2", "nodemailer", "qrcode"] },
});
