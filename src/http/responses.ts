/** Response builders shared by the routes: the bridge's `{ok:false, error}`, JSON-RPC errors for /mcp. */

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" };

export function json(status: number, body: unknown, headers: HeadersInit = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

/** The bridge contract's failure body. */
export function failure(status: number, error: string, headers: HeadersInit = {}): Response {
  return json(status, { ok: false, error }, headers);
}

/** A JSON-RPC error as the MCP SDK's transport writes them (id null: no request was read). */
export function rpcFailure(status: number, message: string, headers: HeadersInit = {}, code = -32000): Response {
  return json(status, { jsonrpc: "2.0", error: { code, message }, id: null }, headers);
}

/** 403 for a disallowed peer, Host or Origin: plain text, the same for every route, saying no more. */
export function forbidden(): Response {
  return new Response("forbidden", {
    status: 403,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
  });
}

/** Copies a response with extra headers (Response headers can be immutable, e.g. from fetch or the SDK). */
export function withHeaders(response: Response, headers: Record<string, string>): Response {
  const merged = new Headers(response.headers);
  for (const [name, value] of Object.entries(headers)) merged.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers: merged });
}
