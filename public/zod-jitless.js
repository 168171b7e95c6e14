// zod (the forms' validation library, in the bundle of every page) probes once whether it may
// compile parsers with `new Function`, unless told not to ("jitless"). This site's
// Content-Security-Policy has no 'unsafe-eval', so the probe fails, and although zod catches the
// error the browser reports a `securitypolicyviolation` on every page (tests/e2e/access.spec.ts
// checks there is none). zod reads this global when its modules load; root.tsx includes this as
// a deferred classic script in <head>, which runs before the page's module scripts.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
