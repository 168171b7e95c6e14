// Fills the runtime's boot caches (every challenge image's writable directories, on disk under
// DATA_DIR/cache) before the server starts: scripts/up.sh runs it after building the images, so
// the first start after a deploy that changed images does not share the engine with the fill
// (server/core/deployments/boot-caches.ts). Images whose caches are on disk cost a file read.
//
//   npm run caches
import { loadConfig } from "#server/config.ts";
import { createPlatform } from "#server/platform.ts";

const t0 = performance.now();
const platform = await createPlatform({ ...loadConfig(), logLevel: "warn" });
try {
  await platform.deployments.prepareRuntime();
  console.log(`boot caches ready for every challenge image in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
} finally {
  await platform.close();
}
