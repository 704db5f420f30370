/** Address and Host-header checks: who may talk to the listener, and under which name. */

/** 127.0.0.0/8, ::1 and their IPv4-mapped forms. */
export function isLoopbackAddress(address: string): boolean {
  const a = address.toLowerCase().replace(/^\[|\]$/g, "");
  if (a === "::1" || a === "0:0:0:0:0:0:0:1") return true;
  const v4 = a.startsWith("::ffff:") ? a.slice(7) : a;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** A name a browser can only resolve to this machine (so a DNS-rebound page cannot use it). */
export function isLoopbackName(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === "localhost" || isLoopbackAddress(h);
}

/** Splits a Host header ("name", "name:port", "[v6]:port"); null when malformed. */
export function parseHost(host: string, defaultPort: number): { hostname: string; port: number } | null {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[^\s:\[\]\/@]+)(?::(\d{1,5}))?$/.exec(host);
  if (!match) return null;
  const port = match[2] === undefined ? defaultPort : Number(match[2]);
  return port > 65535 ? null : { hostname: match[1].replace(/^\[|\]$/g, ""), port };
}

/**
 * The DNS-rebinding check: the Host a client used must be a loopback name or address with the
 * port we listen on. A page on evil.example that rebinds its name to 127.0.0.1 still sends
 * `Host: evil.example`.
 */
export function isAllowedHost(host: string | null, listenPort: number, defaultPort: number): boolean {
  if (!host) return false;
  const parsed = parseHost(host, defaultPort);
  return parsed !== null && parsed.port === listenPort && isLoopbackName(parsed.hostname);
}

/** `https://example.com:8443` → itself; a string that is not exactly an origin → null. */
export function normalizeOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    if (url.pathname !== "/" || url.search || url.hash || url.username || url.password) return null;
    return url.origin;
  } catch {
    return null;
  }
}
