import { isAllowedHost, isLoopbackAddress } from "./net.ts";
import type { ResolvedOptions } from "./options.ts";
import { bearerMatches } from "./token.ts";

/** Facts about the connection a request came on. */
export interface Peer {
  address: string;
  /** The port we listen on and the scheme's default port, for the Host check. */
  listenPort: number;
  defaultPort: number;
}

export type Verdict =
  | { ok: true; origin: string | null }
  | { ok: false; status: 403 | 431 };

function headerBytes(headers: Headers): number {
  let size = 0;
  for (const [name, value] of headers) size += name.length + value.length + 4;
  return size;
}

/**
 * The checks every route gets before anything else: header size, loopback peer, Host (DNS
 * rebinding), Origin allowlist. Requests without Origin (curl, scripts) pass from loopback.
 */
export function admit(request: Request, peer: Peer, options: ResolvedOptions): Verdict {
  if (headerBytes(request.headers) > options.limits.headerBytes) return { ok: false, status: 431 };
  if (!options.allowRemote) {
    if (!isLoopbackAddress(peer.address)) return { ok: false, status: 403 };
    const host = request.headers.get("host") ?? safeHost(request.url);
    if (!isAllowedHost(host, peer.listenPort, peer.defaultPort)) return { ok: false, status: 403 };
  }
  const origin = request.headers.get("origin");
  if (origin !== null && !options.allowedOrigins.has(origin) && !isOwnOrigin(origin, peer)) {
    return { ok: false, status: 403 };
  }
  return { ok: true, origin };
}

/** True when no token is configured or the request carries it. */
export function authorized(request: Request, options: ResolvedOptions): boolean {
  return options.token === null || bearerMatches(request.headers.get("authorization"), options.token);
}

/**
 * Our own loopback origin (`http://127.0.0.1:PORT` for this listener): only pages we serve could
 * have it, and we serve none, so it is as safe as no Origin. MCP clients in browsers send it.
 */
function isOwnOrigin(origin: string, peer: Peer): boolean {
  const match = /^(https?):\/\/(.+)$/.exec(origin);
  if (!match || match[1] !== (peer.defaultPort === 443 ? "https" : "http")) return false;
  return isAllowedHost(match[2], peer.listenPort, peer.defaultPort);
}

function safeHost(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}
