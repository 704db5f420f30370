import { failure, json } from "../responses.ts";
import { type BodyLimits, readBody } from "../body.ts";
import { type BridgeBackend, BridgeError } from "./backend.ts";
import { parseBridgeRequest, type ParseDeps } from "./request.ts";
import { dispatch } from "./dispatch.ts";

/**
 * `GET /health`. Without the token (when one is set) it says only that the bridge is up and its
 * mode, as an add-in's reachability probe needs; the socket path and counts need the token.
 */
export async function healthRoute(backend: BridgeBackend, authorized: boolean): Promise<Response> {
  const info = await backend.health();
  if (!authorized) return json(200, { ok: true, mode: backend.mode, backend: info.backend });
  return json(200, { ok: true, mode: backend.mode, ...info });
}

export interface BridgeRouteDeps extends ParseDeps {
  backend: BridgeBackend;
  body: BodyLimits;
  log: (line: string) => void;
}

/**
 * `POST /v1/tmux`: body → validated request → backend → `{ok, action, …}` or `{ok:false, error}`.
 * `cancelled` gives the signal that aborts when the client goes away or the server stops.
 */
export async function bridgeRoute(
  request: Request,
  cancelled: () => AbortSignal,
  deps: BridgeRouteDeps,
): Promise<Response> {
  const body = await readBody(request, deps.body);
  if (!body.ok) {
    switch (body.reason) {
      case "too_large":
        return failure(413, `Request body too large (max ${deps.body.maxBytes} bytes).`);
      case "timeout":
        return failure(408, "Request body timed out.");
      case "invalid_utf8":
        return failure(400, "Invalid JSON body.");
      case "aborted":
        return failure(400, "Request body was not received in full.");
    }
  }
  const text = body.text.trim();
  if (text === "") return failure(400, "Missing JSON request body.");
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    return failure(400, "Invalid JSON body.");
  }
  try {
    const parsed = await parseBridgeRequest(payload, deps);
    return json(200, await dispatch(deps.backend, parsed, cancelled));
  } catch (error) {
    if (error instanceof BridgeError) return failure(error.status, error.message);
    if (cancelled().aborted) return failure(503, "Request cancelled: the client went away or the server is stopping.");
    deps.log(`[tmuxwright] bridge request failed: ${error instanceof Error ? error.stack : error}`);
    return failure(500, "Internal server error.");
  }
}
