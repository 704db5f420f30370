import type { BridgeBackend } from "./backend.ts";
import type { BridgeRequest } from "./request.ts";
import { abortableDelay } from "./delay.ts";

/** A success body of the bridge contract. */
export interface BridgeResult {
  ok: true;
  action: BridgeRequest["action"];
  session?: string;
  sessions?: string[];
  output?: string;
  metadata?: Record<string, unknown>;
}

/** Names for sessions created without one: short, valid for the contract's pattern, unlikely to clash. */
export function generatedSessionName(): string {
  return `bridge-${crypto.randomUUID().slice(0, 8)}`;
}

function captureMetadata(request: BridgeRequest, output: string): Record<string, unknown> {
  return {
    lines_requested: request.lines,
    lines_returned: output === "" ? 0 : output.split("\n").length,
    join_wrapped: request.joinWrapped,
  };
}

/** Runs one validated request against a backend; BridgeErrors pass through to the route. */
export async function dispatch(backend: BridgeBackend, request: BridgeRequest, cancelled: () => AbortSignal) {
  const { action } = request;
  const session = request.session!;
  const input = { text: request.text, keys: request.keys, enter: request.enter };
  const capture = { lines: request.lines, joinWrapped: request.joinWrapped };
  switch (action) {
    case "list_sessions":
      return { ok: true, action, sessions: await backend.list() } satisfies BridgeResult;
    case "create_session": {
      const name = request.session ?? generatedSessionName();
      await backend.create(name, request.cwd);
      return { ok: true, action, session: name } satisfies BridgeResult;
    }
    case "send_keys":
      await backend.send(session, input);
      return { ok: true, action, session } satisfies BridgeResult;
    case "capture_pane": {
      if (request.waitMs > 0) await abortableDelay(request.waitMs, cancelled());
      const output = await backend.capture(session, capture);
      return { ok: true, action, session, output, metadata: captureMetadata(request, output) } satisfies BridgeResult;
    }
    case "send_and_capture": {
      const { output, elapsedMs } = await backend.sendAndCapture(session, input, {
        ...capture,
        waitFor: request.waitFor,
        timeoutMs: request.timeoutMs,
        waitMs: request.waitMs,
      }, cancelled());
      const metadata = {
        ...captureMetadata(request, output),
        ...(request.waitFor ? { wait_for: request.waitFor.source, matched: true } : {}),
        elapsed_ms: Math.round(elapsedMs),
      };
      return { ok: true, action, session, output, metadata } satisfies BridgeResult;
    }
    case "kill_session":
      await backend.kill(session);
      return { ok: true, action, session } satisfies BridgeResult;
  }
}
