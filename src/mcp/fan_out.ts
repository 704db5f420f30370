import type { App } from "../app.ts";
import { toToolError } from "../engine/errors.ts";
import { ImageResult } from "./results.ts";
import { hostsInUse, tagHost } from "./hosts.ts";

/** Runs the tool on one host, with some arguments replaced. */
export type RunOn = (
  host: string,
  override?: Record<string, unknown>,
) => Promise<Record<string, unknown> | ImageResult>;
type FanOut = (app: App, runOn: RunOn, args: Record<string, unknown>) => Promise<Record<string, unknown>>;

/**
 * Tools that look at every host when no host is named: this machine and each remote host whose
 * link is up or that holds the caller's panes (one that cannot be reached is named in
 * `host_errors` rather than failing the call; one never used is not dialled just to be looked at).
 */
export const FAN_OUT = new Map<string, FanOut>([
  ["list_panes", async (app, runOn) => {
    const parts = await onEveryHost(app, (host) => runOn(host));
    return { panes: parts.results.flatMap((r) => r.value.panes as unknown[]), ...parts.errors };
  }],
  ["search_panes", async (app, runOn, args) => {
    // Each host's whole result (its first 200 panes), then one page over all of them.
    const parts = await onEveryHost(app, (host) => runOn(host, { offset: 0, limit: 200 }));
    const matches = parts.results.flatMap((r) => r.value.matches as unknown[]);
    const offset = Number(args.offset ?? 0);
    const limit = Number(args.limit ?? 20);
    const more = matches.length > offset + limit;
    const timedOut = parts.results.some((r) => r.value.timed_out === true);
    const sum = (key: string) => parts.results.reduce((n, r) => n + Number(r.value[key] ?? 0), 0);
    return {
      panes_searched: sum("panes_searched"),
      panes_matched: sum("panes_matched"),
      matches: matches.slice(offset, offset + limit),
      offset,
      truncated: more || timedOut || parts.results.some((r) => r.value.next_offset !== undefined),
      ...(more ? { next_offset: offset + limit } : {}),
      ...(timedOut ? { timed_out: true } : {}),
      ...parts.errors,
    };
  }],
]);

async function onEveryHost(
  app: App,
  run: (host: string) => Promise<Record<string, unknown> | ImageResult>,
): Promise<{ results: { host: string; value: Record<string, unknown> }[]; errors: Record<string, unknown> }> {
  const hosts = hostsInUse(app);
  const settled = await Promise.allSettled(hosts.map((host) => run(host)));
  const results: { host: string; value: Record<string, unknown> }[] = [];
  const failed: Record<string, string> = {};
  settled.forEach((outcome, i) => {
    const host = hosts[i];
    if (outcome.status === "rejected") {
      if (host === "local") throw outcome.reason; // this machine's own failure is the call's
      const error = toToolError(outcome.reason);
      failed[host] = `${error.code}: ${error.message}`;
      return;
    }
    const value = outcome.value instanceof ImageResult ? outcome.value.fields : outcome.value;
    results.push({ host, value: tagHost(value, host) });
  });
  return { results, errors: Object.keys(failed).length > 0 ? { host_errors: failed } : {} };
}
