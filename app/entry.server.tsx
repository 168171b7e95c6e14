// Server rendering: streams HTML to browsers, waits for everything for bots and no-JS tools.
import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { createContext, type EntryContext, type RouterContextProvider, ServerRouter } from "react-router";
import { createLoadContext as platformLoadContext, type PlatformDeps } from "./.server/context.ts";

/** This response's Content-Security-Policy nonce (server/security-headers.ts makes it). */
const cspNonceContext = createContext<string | undefined>(undefined);

/** Called by server.ts through the server build, with the nonce of the response's CSP header. */
export function createLoadContext(deps: PlatformDeps, clientIp: string, cspNonce?: string) {
  const c = platformLoadContext(deps, clientIp);
  c.set(cspNonceContext, cspNonce);
  return c;
}

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  // Every inline script React Router and React write carries the nonce, so the page's CSP can
  // refuse all other inline scripts.
  const nonce = loadContext.get(cspNonceContext);
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const ua = request.headers.get("user-agent");
    const readyOption = (ua && isbot(ua)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
    const { pipe, abort } = renderToPipeableStream(<ServerRouter context={routerContext} url={request.url} nonce={nonce} />, {
      nonce,
      [readyOption]() {
        shellRendered = true;
        const body = new PassThrough();
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
        pipe(body);
      },
      onShellError: reject,
      onError(error: unknown) {
        responseStatusCode = 500;
        if (shellRendered) console.error(error);
      },
    });
    setTimeout(abort, streamTimeout + 1000);
  });
}
