import * as z from "zod";
import { defineTool } from "../define.ts";
import { MAX_WAIT_MS } from "../../engine/watch/mod.ts";
import * as patterns from "../../safety/patterns.ts";

const channelArg = patterns.channelNameArg.refine((v) => !v.startsWith("tmuxwright-"), {
  message: "channels named tmuxwright-* are reserved for tmuxwright's own start-up gates",
});

/** tmux wait-for channels: shell scripts and agents signal each other (`tmux wait-for -S NAME` in a pane). */
export const channelTools = [
  defineTool({
    name: "wait_for_channel",
    title: "Wait for channel",
    description: "Wait until `tmux wait-for -S channel` runs (a signal sent while nobody waits counts). " +
      "A timeout returns signaled:false.",
    profile: "all",
    group: "channels",
    tier: "readonly",
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    input: { channel: channelArg, timeout_ms: z.number().int().min(0).optional().describe("default 30000") },
    async handler(args, ctx) {
      const requested = args.timeout_ms ?? 30_000;
      const timeoutMs = Math.min(requested, MAX_WAIT_MS);
      const ticker = setInterval(() => void ctx.progress(0, timeoutMs, `waiting for channel ${args.channel}`), 1000);
      try {
        const result = await ctx.app.channels.wait(args.channel, timeoutMs, ctx.signal);
        return {
          channel: args.channel,
          signaled: result.signaled,
          timed_out: !result.signaled,
          elapsed_ms: result.elapsedMs,
          timeout_ms: timeoutMs,
          ...(requested > timeoutMs ? { timeout_clamped: true } : {}),
        };
      } finally {
        clearInterval(ticker);
      }
    },
  }),
  defineTool({
    name: "signal_channel",
    title: "Signal channel",
    description: "Wake everything waiting on a channel (tmux wait-for -S).",
    profile: "all",
    group: "channels",
    tier: "mutating",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    input: { channel: channelArg },
    async handler(args, ctx) {
      await ctx.app.channels.signal(args.channel);
      return { channel: args.channel, signaled: true };
    },
  }),
];
