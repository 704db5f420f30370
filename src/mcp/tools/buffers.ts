import * as z from "zod";
import { defineTool, READ_ONLY } from "../define.ts";
import { paneIdArg } from "../args.ts";
import { checkNoNul, deadError } from "../checks.ts";
import { paneIds } from "../results.ts";
import * as patterns from "../../safety/patterns.ts";

const bufferArg = patterns.bufferNameArg.describe("name load_buffer returned");

/** Paste buffers namespaced to this server: load, paste, show, delete. */
export const bufferTools = [
  defineTool({
    name: "load_buffer",
    title: "Load buffer",
    description: "Store text in a new paste buffer; returns its generated name.",
    profile: "all",
    group: "buffers",
    tier: "mutating",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    input: { text: z.string().min(1).max(1_000_000) },
    async handler(args, ctx) {
      checkNoNul(args.text, "text");
      return await ctx.app.buffers.load(args.text);
    },
  }),
  defineTool({
    name: "paste_buffer",
    title: "Paste buffer",
    description: "Paste a buffer into a pane (bracketed by default); the buffer is kept.",
    profile: "all",
    group: "buffers",
    tier: "mutating",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    input: { buffer: bufferArg, pane_id: paneIdArg, bracketed: z.boolean().optional() },
    async handler(args, ctx) {
      const pane = await ctx.pane(args.pane_id);
      if (ctx.app.gate.judge !== null) {
        const { content, truncated } = await ctx.app.buffers.show(args.buffer);
        // A buffer too long to read whole is judged as a line the server cannot see.
        const typed = truncated
          ? [{ key: "(unread)" }, { key: "Enter" }]
          : [{ text: content, bracketed: args.bracketed ?? true }];
        await ctx.app.gate.checkTyping(pane, ctx.tmux.host, typed);
      }
      if (pane.dead || !await ctx.app.buffers.paste(args.buffer, pane.paneId, args.bracketed ?? true)) {
        throw deadError(pane, "paste into");
      }
      return { ...paneIds(pane), buffer: args.buffer, pasted: true };
    },
  }),
  defineTool({
    name: "show_buffer",
    title: "Show buffer",
    description: "Read a buffer this server loaded.",
    profile: "all",
    group: "buffers",
    tier: "readonly",
    annotations: READ_ONLY,
    input: { buffer: bufferArg },
    async handler(args, ctx) {
      return { buffer: args.buffer, ...await ctx.app.buffers.show(args.buffer) };
    },
  }),
  defineTool({
    name: "delete_buffer",
    title: "Delete buffer",
    description: "Delete a buffer this server loaded.",
    profile: "all",
    group: "buffers",
    tier: "mutating",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    input: { buffer: bufferArg },
    async handler(args, ctx) {
      await ctx.app.buffers.delete(args.buffer);
      return { buffer: args.buffer, deleted: true };
    },
  }),
];
