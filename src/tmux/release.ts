/**
 * The tmux release on this machine, as `tmux -V` names it, against the releases tmuxwright is
 * tested on (every CI run builds each from its source: .ci/run, .ci/tmux-matrix).
 */
import { tmuxOneShot } from "./oneshot.ts";
import { OLDEST_TMUX, supportedVersion } from "./dialect.ts";

/** The releases the suite runs on, newest last; `next-` builds are master's. */
export const TESTED_RELEASES = ["3.2a", "3.3a", "3.4", "3.5a", "3.6b", "3.7c", "next-3.8"] as const;

/** What to install, in one line, for a machine whose tmux is too old or missing. */
export const INSTALL_HINT = `install tmux ${OLDEST_TMUX} or newer (Debian 12, Ubuntu 22.04 and later, ` +
  "RHEL 9: the distribution's tmux package; macOS: brew install tmux)";

/** `tmux -V`'s version ("3.4", "next-3.8"); null when tmux is not there. */
export async function localTmuxVersion(): Promise<string | null> {
  try {
    const out = await tmuxOneShot(["-V"]);
    return out.code === 0 ? out.stdout.trim().replace(/^tmux /, "") : null;
  } catch {
    return null;
  }
}

/** The one line that refuses a tmux older than OLDEST_TMUX; null when it is new enough (or not there: said per call). */
export async function oldTmuxRefusal(): Promise<string | null> {
  const version = await localTmuxVersion();
  if (version === null || supportedVersion(version)) return null;
  return `tmux ${version} is too old: ${INSTALL_HINT}`;
}

/** Whether the suite runs on this release. */
export function testedRelease(version: string): boolean {
  return (TESTED_RELEASES as readonly string[]).includes(version) || version === "master";
}
