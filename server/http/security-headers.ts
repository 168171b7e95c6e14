// The response headers every answer carries (pages, assets and the API alike), set once here.
import { randomBytes } from "node:crypto";
import type { NextFunction, Request, Response } from "express";

/**
 * The Content-Security-Policy. Scripts: our own files plus the inline scripts React Router and
 * React write into the page (hydration data, the module loader, streamed boundaries), which
 * carry this request's nonce (app/entry.server.tsx passes it to ServerRouter and React), and
 * WebAssembly compilation (not JavaScript eval).
 * Styles: our own stylesheet; inline style *attributes* stay allowed because React renders
 * some (`<html style="color-scheme">`) and an attribute cannot run code. Images may be data:
 * URLs (the 2FA QR code). `connect-src 'self'` covers the live WebSocket on the same host.
 */
export function contentSecurityPolicy(nonce?: string): string {
  return [
    "default-src 'self'",
    // 'wasm-unsafe-eval' lets WebAssembly compile (the session replay's terminal emulator,
    // asciinema-player, is WebAssembly) and nothing else: JavaScript eval and new Function stay
    // refused, as tests/e2e/debrief.spec.ts checks on the replay itself.
    nonce ? `script-src 'self' 'nonce-${nonce}' 'wasm-unsafe-eval'` : "script-src 'self' 'wasm-unsafe-eval'",
    // The nonce lets the browser terminal's xterm.js (loaded only when opened) mark the <style>
    // elements it makes for its grid and theme (app/features/challenge/components/terminal-panel.tsx).
    nonce ? `style-src 'self' 'nonce-${nonce}'` : "style-src 'self'",
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** One year; no includeSubDomains: other hosts under the same domain are not ours to pin. */
export const HSTS = "max-age=31536000";

/** The nonce the security-headers middleware put in this response's policy, if any. */
export const cspNonceOf = (res: Response): string | undefined => res.locals.cspNonce as string | undefined;

/**
 * Sets the security headers on every response. `csp: false` is for development only, where
 * Vite injects its own inline scripts and styles for hot reload.
 */
export function securityHeaders(opts: { publicUrl: URL; csp: boolean }) {
  const https = opts.publicUrl.protocol === "https:";
  return (_req: Request, res: Response, next: NextFunction) => {
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "same-origin");
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
    if (opts.csp) {
      const nonce = randomBytes(16).toString("base64");
      res.locals.cspNonce = nonce;
      res.setHeader("Content-Security-Policy", contentSecurityPolicy(nonce));
    }
    // Only over https: browsers ignore the header on plain http, and it would be a lie there.
    if (https) res.setHeader("Strict-Transport-Security", HSTS);
    next();
  };
}
