import { join } from "node:path";
import { redactArgs } from "./redact.ts";

export interface AuditEntry {
  tool: string;
  paneId: string | null;
  /** The host the call acted on; by default the one its pane id names (`NAME:%N`), else "local". */
  host?: string;
  args: Record<string, unknown>;
  outcome: "ok" | "error" | "denied";
  error?: string;
  durationMs: number;
  outputBytes: number;
  /** The MCP revision of a 2026-era call (`2026-07-28`); 2025-era lines carry none, as before. */
  protocol?: string;
}

/** One decision of the command policy (src/engine/policy/): what was judged, the verdict, who answered an ask. */
export interface PolicyDecision {
  tool: string;
  pane: string | null;
  host: string;
  command: string;
  judgement: { verdict: string; rule: string | null; command: string; reason: string };
  outcome: string;
  answeredBy?: string;
}

/** `NAME:%N` is pane %N on host NAME; any other pane reference (or none) is on this machine. */
export function hostOfPane(paneId: string | null): string {
  return /^([A-Za-z0-9][A-Za-z0-9_.-]{0,31}):%\d+$/.exec(paneId ?? "")?.[1] ?? "local";
}

/** The audit file or capture directory could not be opened; `flag` chose the path. */
export class AuditOpenError extends Error {
  constructor(readonly flag: "--audit" | "--audit-full", readonly path: string, override readonly cause: unknown) {
    super(`${flag} ${path}: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/**
 * JSON-lines audit log: one line per tool call, written (and awaited) before the call returns,
 * so nothing is lost if the server is killed right after.
 */
export class AuditLog {
  #chain: Promise<void> = Promise.resolve();
  #captureCount = 0;

  private constructor(
    private readonly file: Deno.FsFile | null,
    private readonly fullDir: string | null,
    private readonly payloads: boolean,
  ) {}

  /** Opens the file and creates the capture directory; throws AuditOpenError naming which failed. */
  static async open(options: { file: string | null; fullDir: string | null; payloads: boolean }): Promise<AuditLog> {
    let file: Deno.FsFile | null = null;
    if (options.file) {
      try {
        file = await Deno.open(options.file, { append: true, create: true, mode: 0o600 });
      } catch (cause) {
        throw new AuditOpenError("--audit", options.file, cause);
      }
    }
    if (options.fullDir) {
      try {
        await Deno.mkdir(options.fullDir, { recursive: true, mode: 0o700 });
      } catch (cause) {
        file?.close();
        throw new AuditOpenError("--audit-full", options.fullDir, cause);
      }
    }
    return new AuditLog(file, options.fullDir, options.payloads);
  }

  get enabled(): boolean {
    return this.file !== null;
  }

  record(entry: AuditEntry): Promise<void> {
    if (!this.file) return Promise.resolve();
    const file = this.file;
    const write = async () => {
      const line = JSON.stringify({
        ts: new Date().toISOString(),
        tool: entry.tool,
        pane_id: entry.paneId,
        host: entry.host ?? hostOfPane(entry.paneId),
        args: this.payloads ? entry.args : await redactArgs(entry.args),
        outcome: entry.outcome,
        ...(entry.error ? { error: entry.error } : {}),
        duration_ms: Math.round(entry.durationMs * 1000) / 1000,
        output_bytes: entry.outputBytes,
        ...(entry.protocol ? { protocol: entry.protocol } : {}),
      }) + "\n";
      const bytes = new TextEncoder().encode(line);
      for (let n = 0; n < bytes.length;) n += await file.write(bytes.subarray(n));
    };
    this.#chain = this.#chain.then(write, write);
    return this.#chain;
  }

  /** One line per policy decision; the command is a payload (hashed unless --audit-payloads). */
  decision(entry: PolicyDecision): Promise<void> {
    if (!this.file) return Promise.resolve();
    const file = this.file;
    const write = async () => {
      const { judgement } = entry;
      const payloads = { command: entry.command, matched: judgement.command };
      const line = JSON.stringify({
        ts: new Date().toISOString(),
        event: "policy",
        tool: entry.tool,
        pane_id: entry.pane,
        host: entry.host,
        verdict: judgement.verdict,
        rule: judgement.rule,
        reason: judgement.reason,
        outcome: entry.outcome,
        ...(entry.answeredBy ? { answered_by: entry.answeredBy } : {}),
        ...(this.payloads ? payloads : await redactArgs(payloads, ["command", "matched"])),
      }) + "\n";
      const bytes = new TextEncoder().encode(line);
      for (let n = 0; n < bytes.length;) n += await file.write(bytes.subarray(n));
    };
    this.#chain = this.#chain.then(write, write);
    return this.#chain;
  }

  /** With --audit-full: keeps every capture as `DIR/<pane>-capture-NNN.txt`. */
  async capture(paneId: string, text: string): Promise<void> {
    if (!this.fullDir) return;
    const n = String(++this.#captureCount).padStart(3, "0");
    await Deno.writeTextFile(join(this.fullDir, `${paneId.replace(/^%/, "pane")}-capture-${n}.txt`), text, {
      mode: 0o600,
    });
  }

  close(): void {
    try {
      this.file?.close();
    } catch { /* already closed */ }
  }
}
