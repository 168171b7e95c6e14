// The baseline of bench/http.ts: a bare React Router app in framework mode (same versions and
// future flags as the real app), server-rendered, one route with a static page.
import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  future: {
    v8_middleware: true,
    v8_trailingSlashAwareDataRequests: true,
    v8_splitRouteModules: true,
    v8_viteEnvironmentApi: false,
  },
} satisfies Config;
