/** Reads a request body within a size bound and time bounds, so a slow or huge upload cannot hold a slot. */

export interface BodyLimits {
  maxBytes: number;
  /** Longest pause between two chunks. */
  idleMs: number;
  /** Longest time for the whole body. */
  totalMs: number;
}

export type BodyResult =
  | { ok: true; text: string }
  | { ok: false; reason: "too_large" | "timeout" | "aborted" | "invalid_utf8" };

export async function readBody(request: Request, limits: BodyLimits): Promise<BodyResult> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > limits.maxBytes) return { ok: false, reason: "too_large" };
  if (request.body === null) return { ok: true, text: "" };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const deadline = performance.now() + limits.totalMs;
  try {
    for (;;) {
      const wait = Math.min(limits.idleMs, deadline - performance.now());
      const next = await readWithin(reader, wait);
      if (next === "timeout") return { ok: false, reason: "timeout" };
      if (next.done) break;
      size += next.value.byteLength;
      if (size > limits.maxBytes) return { ok: false, reason: "too_large" };
      chunks.push(next.value);
    }
  } catch {
    return { ok: false, reason: "aborted" }; // the client went away mid-body
  } finally {
    reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    return { ok: true, text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    return { ok: false, reason: "invalid_utf8" };
  }
}

function readWithin(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  ms: number,
): Promise<ReadableStreamReadResult<Uint8Array> | "timeout"> {
  if (ms <= 0) return Promise.resolve("timeout");
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => timer = setTimeout(() => resolve("timeout"), ms));
  return Promise.race([reader.read(), timeout]).finally(() => clearTimeout(timer));
}
