import { PAYLOAD_ARGS, PAYLOAD_MAPS } from "../safety/scrub.ts";

export interface Digest {
  len: number;
  sha256: string;
}

async function digest(value: unknown): Promise<Digest> {
  const text = typeof value === "string" ? value : JSON.stringify(value) ?? "";
  const bytes = new TextEncoder().encode(text);
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return { len: text.length, sha256: Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("") };
}

/** Replaces payload values with `{len, sha256}`; other values are kept as they are. */
export async function redactArgs(
  args: Record<string, unknown>,
  payloadKeys: readonly string[] = [],
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    if ((PAYLOAD_ARGS.has(key) || payloadKeys.includes(key)) && value !== undefined) {
      out[key] = Array.isArray(value) ? await Promise.all(value.map(digest)) : await digest(value);
    } else if (PAYLOAD_MAPS.has(key) && value && typeof value === "object") {
      const map: Record<string, Digest> = {};
      for (const [k, v] of Object.entries(value)) map[k] = await digest(v);
      out[key] = map;
    } else {
      out[key] = value;
    }
  }
  return out;
}
