import { ProtocolErrorCode } from "./sdk.ts";
import { toToolError } from "../engine/errors.ts";

/** JSON-RPC code for a resource that does not exist (MCP 2025-11-25). */
export const RESOURCE_NOT_FOUND = -32002;

/**
 * A JSON-RPC error answer. The SDK sends `code` and `message` as they are (its McpError would
 * prefix the message with "MCP error <code>:", which the client's McpError then repeats).
 */
export class ProtocolError extends Error {
  constructor(readonly code: number, message: string, readonly data?: unknown) {
    super(message);
    this.name = "ProtocolError";
  }
}

/**
 * Resources, prompts and completion answer failures with JSON-RPC errors (tools answer with
 * `isError` results). The message is the same agent-facing text a tool would give.
 */
export function protocolError(thrown: unknown, notFound: number = RESOURCE_NOT_FOUND): ProtocolError {
  if (thrown instanceof ProtocolError) return thrown;
  const error = toToolError(thrown);
  if (error.code === "INTERNAL") console.error("[tmuxwright] request failed:", thrown);
  // A pane on a host the server was not started with does not exist for this client either.
  const code = error.code === "PANE_NOT_FOUND" || error.code === "HOST_NOT_CONFIGURED"
    ? notFound
    : error.code === "INVALID_ARGUMENT" || error.code === "AMBIGUOUS_TARGET"
    ? ProtocolErrorCode.InvalidParams
    : ProtocolErrorCode.InternalError;
  return new ProtocolError(code, `${error.code}: ${error.message}${error.hint ? ` ${error.hint}` : ""}`);
}

/** Runs a request handler body, turning whatever it throws into a protocol error. */
export async function answering<T>(body: () => Promise<T>, notFound?: number): Promise<T> {
  try {
    return await body();
  } catch (thrown) {
    throw protocolError(thrown, notFound);
  }
}
