import { isAbsolute } from "node:path";
import { type Action, ACTIONS, BridgeError, type WaitPattern } from "./backend.ts";

export const LIMITS = {
  text: 8000,
  waitFor: 256,
  keys: 1000,
  lines: { min: 1, max: 5000, default: 200 },
  timeoutMs: { min: 100, max: 120_000, default: 5000 },
  waitMs: { min: 0, max: 120_000, default: 0 },
} as const;

export const SESSION_NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;
export const KEY_TOKEN = /^[A-Za-z0-9._:+-]{1,48}$/;

/** A validated `POST /v1/tmux` body; defaults applied. */
export interface BridgeRequest {
  action: Action;
  session?: string;
  cwd?: string;
  text?: string;
  keys?: string[];
  enter?: boolean;
  lines: number;
  waitFor?: WaitPattern;
  timeoutMs: number;
  waitMs: number;
  joinWrapped: boolean;
}

export interface ParseDeps {
  /** Compiles `wait_for`; rejects on an invalid pattern. */
  compilePattern(source: string): Promise<WaitPattern>;
  /** What is at `path`: a directory, something else, or nothing (or nothing we may see). */
  statPath(path: string): Promise<"directory" | "other" | "missing">;
}

const bad = (message: string) => new BridgeError(400, message);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
/** Values quoted in messages are cut short: a client may have pasted anything into the field. */
const shown = (value: string) => value.length > 64 ? `${value.slice(0, 64)}…` : value;

/** JSON null and absent mean the same: many clients serialise an unset field as null. */
function optional<T extends "string" | "boolean">(
  body: Record<string, unknown>,
  name: string,
  type: T,
): (T extends "string" ? string : boolean) | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  const matches = type === "string" ? typeof value === "string" : typeof value === "boolean";
  if (!matches) throw bad(`${name} must be a ${type}.`);
  return value as T extends "string" ? string : boolean;
}

/** Strings are trimmed and an empty one counts as absent, as in the bridge contract's clients. */
function trimmed(body: Record<string, unknown>, name: string): string | undefined {
  const value = optional(body, name, "string")?.trim();
  return value ? value : undefined;
}

function integer(body: Record<string, unknown>, name: string, range: { min: number; max: number }) {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value)) throw bad(`${name} must be an integer.`);
  if (value < range.min || value > range.max) throw bad(`${name} must be between ${range.min} and ${range.max}.`);
  return value;
}

function sessionName(value: string | undefined): string | undefined {
  if (value !== undefined && !SESSION_NAME.test(value)) {
    throw bad("Invalid session name. Use 1-64 chars: letters, numbers, ., _, :, - (starting with a letter or number)");
  }
  return value;
}

function keyTokens(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw bad("keys must be an array of strings.");
  if (value.length > LIMITS.keys) throw bad(`keys must have at most ${LIMITS.keys} tokens.`);
  const keys: string[] = [];
  for (const item of value) {
    if (typeof item !== "string") throw bad("keys must contain only strings.");
    const key = item.trim();
    if (key.length === 0) continue;
    if (!KEY_TOKEN.test(key)) throw bad(`Invalid key token: ${shown(key)}`);
    keys.push(key);
  }
  return keys.length > 0 ? keys : undefined;
}

/** Text is typed exactly as sent (leading spaces matter to a REPL); only blank text counts as absent. */
function text(body: Record<string, unknown>): string | undefined {
  const value = optional(body, "text", "string");
  if (value === undefined || value.trim() === "") return undefined;
  if (value.length > LIMITS.text) throw bad(`text is too long (max ${LIMITS.text} characters).`);
  // A terminal cannot receive NUL through tmux, and tmux's command line cannot carry it.
  if (value.includes("\0")) throw bad("text must not contain NUL characters.");
  return value;
}

async function directory(value: string | undefined, deps: ParseDeps): Promise<string | undefined> {
  if (value === undefined) return undefined;
  if (!isAbsolute(value)) throw bad("cwd must be an absolute path.");
  const kind = await deps.statPath(value);
  if (kind === "missing") throw bad(`cwd does not exist: ${shown(value)}`);
  if (kind === "other") throw bad(`cwd is not a directory: ${shown(value)}`);
  return value;
}

async function pattern(value: string | undefined, deps: ParseDeps): Promise<WaitPattern | undefined> {
  if (value === undefined) return undefined;
  if (value.length > LIMITS.waitFor) throw bad(`wait_for is too long (max ${LIMITS.waitFor} characters).`);
  try {
    return await deps.compilePattern(value);
  } catch (error) {
    // The old bridge's sentence first (clients may match it), then why, e.g. an unsupported lookahead.
    const why = error instanceof RangeError ? ` ${error.message}` : "";
    throw bad(`wait_for must be a valid regular expression.${why}`);
  }
}

/** Validates a parsed JSON body; throws BridgeError(400) with the contract's message on the first problem. */
export async function parseBridgeRequest(body: unknown, deps: ParseDeps): Promise<BridgeRequest> {
  if (!isRecord(body)) throw bad("Request body must be a JSON object.");
  const action = typeof body.action === "string" ? body.action.trim() : "";
  if (!(ACTIONS as readonly string[]).includes(action)) throw bad("Invalid action.");
  const request: BridgeRequest = {
    action: action as Action,
    session: sessionName(trimmed(body, "session")),
    cwd: await directory(trimmed(body, "cwd"), deps),
    text: text(body),
    keys: keyTokens(body.keys),
    enter: optional(body, "enter", "boolean"),
    lines: integer(body, "lines", LIMITS.lines) ?? LIMITS.lines.default,
    waitFor: await pattern(trimmed(body, "wait_for"), deps),
    timeoutMs: integer(body, "timeout_ms", LIMITS.timeoutMs) ?? LIMITS.timeoutMs.default,
    waitMs: integer(body, "wait_ms", LIMITS.waitMs) ?? LIMITS.waitMs.default,
    joinWrapped: optional(body, "join_wrapped", "boolean") ?? false,
  };
  if (request.action === "list_sessions" || request.action === "create_session") return request;
  if (request.session === undefined) throw bad(`session is required for ${request.action}`);
  if (request.action === "send_keys" || request.action === "send_and_capture") {
    if (request.text === undefined && request.keys === undefined && request.enter !== true) {
      throw bad(`${request.action} requires at least one of: text, keys, or enter=true.`);
    }
  }
  return request;
}

/** The default `statPath`: Deno.stat, with "missing" also for paths we may not look at. */
export async function statPath(path: string): Promise<"directory" | "other" | "missing"> {
  try {
    return (await Deno.stat(path)).isDirectory ? "directory" : "other";
  } catch {
    return "missing";
  }
}
