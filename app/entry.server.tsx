// Server rendering: the whole document, rendered once every loader has answered, sent as one body.
import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import { createContext, type EntryContext, type RouterContextProvider, ServerRouter } from "react-router";
import { createLoadContext as platformLoadContext, type PlatformDeps } from "./.server/context.ts";

/** This response's Content-Security-Policy nonce (server/http/security-headers.ts makes it). */
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
  // The whole document is rendered before it is sent, as one body. No page defers data (no
  // <Await>): every loader has finished before rendering starts, so streaming the shell first
  // would not send anything sooner, and it cost a stream conversion and a socket write per chunk
  // (a CPU profile of `/`, decision 014). Bots and no-JS tools get the same complete document.
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
      final(done) {
        const body = Buffer.concat(chunks);
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        // A known length lets server/http/web-handler.ts send (or compress) it in one piece.
        responseHeaders.set("Content-Length", String(body.length));
        resolve(new Response(body, { headers: responseHeaders, status: responseStatusCode }));
        done();
      },
    });
    const { pipe, abort } = renderToPipeableStream(<ServerRouter context={routerContext} url={request.url} nonce={nonce} />, {
      nonce,
      onShellReady() {
        shellRendered = true;
      },
      onAllReady() {
        pipe(sink);
      },
      onShellError: reject,
      onError(error: unknown) {
        responseStatusCode = 500;
        // Before the shell, onShellError has it (React Router renders the error boundary).
        if (shellRendered) console.error(error);
      },
    });
    const timer = setTimeout(abort, streamTimeout + 1000);
    sink.on("finish", () => clearTimeout(timer));
  });
}
