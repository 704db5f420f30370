import { bearerMatches, secretMatches } from "../token.ts";

const COOKIE = "tmuxwright_watch";

/**
 * Who may see /watch: with a token (the one /mcp takes), a browser shows it once as
 * `/watch?token=…` and gets an HttpOnly, SameSite=Strict cookie instead, so the token leaves the
 * address bar and history at once. The cookie holds a random secret of this process, not the
 * token: it is worthless after a restart and never reveals the token. Without a token (loopback
 * only), the page is open like /mcp is.
 */
export class WatchAccess {
  readonly #cookieSecret = crypto.randomUUID() + crypto.randomUUID();

  constructor(private readonly token: string | null) {}

  allowed(request: Request): boolean {
    if (this.token === null) return true;
    if (bearerMatches(request.headers.get("authorization"), this.token)) return true;
    return secretMatches(readCookie(request.headers.get("cookie"), COOKIE), this.#cookieSecret);
  }

  /** For `?token=…`: the Set-Cookie value when the token is right, else null. */
  exchange(candidate: string | null, secure: boolean): string | null {
    if (this.token === null || !secretMatches(candidate, this.token)) return null;
    return `${COOKIE}=${this.#cookieSecret}; Path=/watch; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
  }
}

function readCookie(header: string | null, name: string): string | null {
  for (const part of (header ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return value.join("=");
  }
  return null;
}
