/**
 * This server process's secret: 32 random bytes made at start, never written anywhere. It seals
 * what a 2026-era client carries between stateless requests (workspace handles, the policy's
 * `requestState`), so nothing sealed survives a restart and no client can make or alter one.
 */
export class ProcessKey {
  /** For the SDK's requestState codec, which takes the key itself. */
  readonly stateKey: Uint8Array = crypto.getRandomValues(new Uint8Array(32));
  readonly #raw: Uint8Array<ArrayBuffer> = crypto.getRandomValues(new Uint8Array(32));
  /** Names this process's run (not secret): what it sealed is told apart from a forgery after a restart. */
  readonly epoch: string = base64url(crypto.getRandomValues(new Uint8Array(8)));
  #key: Promise<CryptoKey> | null = null;

  /** 128 random bits, base64url (22 characters). */
  randomId(): string {
    return base64url(crypto.getRandomValues(new Uint8Array(16)));
  }

  /** HMAC-SHA-256 of `text` under the key, its first 128 bits as base64url. */
  async mac(text: string): Promise<string> {
    this.#key ??= crypto.subtle.importKey("raw", this.#raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const sig = await crypto.subtle.sign("HMAC", await this.#key, new TextEncoder().encode(text));
    return base64url(new Uint8Array(sig, 0, 16));
  }

  /** Compares two MACs in time independent of where they differ. */
  equal(a: string, b: string): boolean {
    if (a.length !== b.length) return false;
    let diff = 0;
    for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
    return diff === 0;
  }
}

/** SHA-256 of `text`, base64url: what a bearer token or a call's arguments are remembered as. */
export async function digest(text: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))));
}

function base64url(bytes: Uint8Array): string {
  return bytes.toBase64({ alphabet: "base64url", omitPadding: true });
}
