/**
 * The Tasks extension's own requester (`@modelcontextprotocol/ext-tasks` 0.2.2) over a connected SDK v2
 * client. The SDK's codecs refuse a `tools/call` answered with a task, so task traffic goes raw on the
 * client's own transport (the package's `rawDispatch`): sent with a string id, its response taken off
 * the transport before the client sees it.
 */
import type { Client } from "@modelcontextprotocol/client";
import { createTaskSessionFromClient, type JsonRpcResponse } from "@modelcontextprotocol/ext-tasks/client";

type Message = { id?: unknown; result?: unknown; error?: { code: number; message: string; data?: unknown } };

export function tasksSession(client: Client, name: string) {
  const transport = client.transport!;
  const pending = new Map<string, (response: JsonRpcResponse) => void>();
  const deliver = transport.onmessage!;
  transport.onmessage = ((message: Message, extra?: unknown) => {
    const waiting = typeof message.id === "string" ? pending.get(message.id) : undefined;
    if (!waiting) return (deliver as (m: unknown, e?: unknown) => void)(message, extra);
    pending.delete(message.id as string);
    waiting(
      message.error
        ? { kind: "error", error: message.error as never }
        : { kind: "result", result: message.result as never },
    );
  }) as typeof transport.onmessage;
  let next = 0;
  return createTaskSessionFromClient(client, {
    endpointId: `tmuxwright-${name}`,
    v2RequestFraming: {
      protocolVersion: "2026-07-28",
      clientInfo: { name, version: "1.0.0" },
      clientCapabilities: {},
    },
    rawDispatch: (request) => {
      const id = `task-raw-${++next}`;
      const answered = new Promise<JsonRpcResponse>((resolve) => pending.set(id, resolve));
      return transport.send({ jsonrpc: "2.0", id, ...(request as object) } as never).then(() => answered);
    },
  });
}
