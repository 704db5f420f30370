/**
 * The soak's samples: the HTTP server's RSS and open file descriptors, tmux panes and sessions, the
 * state directory's size, and calls/s since the last sample. Medians after warm-up say "flat".
 */
import type { Fleet } from "./fleet.ts";
import type { Ledger } from "./checks.ts";

export interface Sample {
  minute: number;
  rssMiB: number;
  fds: number;
  panes: number;
  sessions: number;
  logMiB: number;
  callsPerSecond: number;
}

export async function sample(fleet: Fleet, ledger: Ledger, since: { at: number; calls: number }, minute: number) {
  const pid = fleet.httpPid;
  const status = pid ? await Deno.readTextFile(`/proc/${pid}/status`).catch(() => "") : "";
  let fds = 0;
  if (pid) { for await (const _ of Deno.readDir(`/proc/${pid}/fd`)) fds++; }
  const panes = await fleet.tmux("list-panes", "-a", "-F", "x");
  const sessions = await fleet.tmux("list-sessions", "-F", "x");
  const now = performance.now();
  const result: Sample = {
    minute,
    rssMiB: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024,
    fds,
    panes: panes.code === 0 ? panes.stdout.split("\n").filter(Boolean).length : 0,
    sessions: sessions.code === 0 ? sessions.stdout.split("\n").filter(Boolean).length : 0,
    logMiB: await size(`${fleet.dir}/state`) / 1024 / 1024,
    callsPerSecond: (ledger.calls - since.calls) / ((now - since.at) / 1000),
  };
  since.at = now;
  since.calls = ledger.calls;
  return result;
}

export function formatSample(s: Sample): string {
  return `| ${s.minute} | ${s.rssMiB.toFixed(0)} | ${s.fds} | ${s.panes} | ${s.sessions} | ${s.logMiB.toFixed(1)} | ${
    s.callsPerSecond.toFixed(1)
  } |`;
}

export const SAMPLE_HEADER = "| minute | RSS MiB | fds | tmux panes | tmux sessions | state dir MiB | calls/s |\n" +
  "| -: | -: | -: | -: | -: | -: | -: |";

/** Medians of each column over the samples after warm-up (the first third). */
export function medians(samples: Sample[]): string {
  const after = samples.slice(Math.floor(samples.length / 3));
  const med = (pick: (s: Sample) => number) => {
    const values = after.map(pick).sort((a, b) => a - b);
    return values.length === 0 ? 0 : values[Math.floor(values.length / 2)];
  };
  const first = after[0];
  const last = after[after.length - 1];
  return `after warm-up (minutes ${first?.minute}–${last?.minute}): median RSS ${
    med((s) => s.rssMiB).toFixed(0)
  } MiB ` +
    `(${first?.rssMiB.toFixed(0)} → ${last?.rssMiB.toFixed(0)}), fds ${
      med((s) => s.fds)
    } (${first?.fds} → ${last?.fds}), ` +
    `panes ${med((s) => s.panes)}, sessions ${med((s) => s.sessions)}, state dir ${
      med((s) => s.logMiB).toFixed(1)
    } MiB ` +
    `(${first?.logMiB.toFixed(1)} → ${last?.logMiB.toFixed(1)}), ${med((s) => s.callsPerSecond).toFixed(1)} calls/s`;
}

async function size(dir: string): Promise<number> {
  let total = 0;
  try {
    for await (const entry of Deno.readDir(dir)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) total += await size(path);
      else if (entry.isFile) total += (await Deno.stat(path).catch(() => ({ size: 0 }))).size;
    }
  } catch { /* removed meanwhile */ }
  return total;
}
