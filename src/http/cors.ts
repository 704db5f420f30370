/** CORS for pages on allowed origins, including Chrome's Private Network Access preflight. */

export const ALLOWED_METHODS = "GET, POST, DELETE, OPTIONS";
export const ALLOWED_HEADERS = "content-type, authorization, mcp-session-id, mcp-protocol-version, last-event-id";
export const EXPOSED_HEADERS = "mcp-session-id, mcp-protocol-version";
/** Chrome caps a cached preflight at two hours; a larger value would only pretend. */
export const MAX_AGE_SECONDS = 7200;

/** Headers every response to an allowed origin carries (none for requests without Origin). */
export function corsHeaders(origin: string | null): Record<string, string> {
  const headers: Record<string, string> = { vary: "Origin" };
  if (origin !== null) {
    headers["access-control-allow-origin"] = origin;
    headers["access-control-expose-headers"] = EXPOSED_HEADERS;
  }
  return headers;
}

/** 204 to a preflight whose Origin already passed the allowlist. */
export function preflight(request: Request, origin: string | null): Response {
  const headers: Record<string, string> = {
    ...corsHeaders(origin),
    "access-control-allow-methods": ALLOWED_METHODS,
    "access-control-allow-headers": ALLOWED_HEADERS,
    "access-control-max-age": String(MAX_AGE_SECONDS),
  };
  // A page on a public or https origin calling localhost asks first (Private Network Access).
  if (request.headers.get("access-control-request-private-network") === "true") {
    headers["access-control-allow-private-network"] = "true";
  }
  return new Response(null, { status: 204, headers });
}
