import { route, type RouteConfig } from "@react-router/dev/routes";

// `/` is a page of about the size of faultline's home; `/N` has N rows, so bench/http.ts can
// compare each faultline page with a bare page of the same size.
export default [route(":rows?", "routes/page.tsx")] satisfies RouteConfig;
