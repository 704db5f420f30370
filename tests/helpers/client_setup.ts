/**
 * What the client tests (tests/clients_*_test.ts) share: a work directory with the packed
 * tmuxwright installed as a user installs it, the configuration snippets read from
 * docs/install.md (the tests use exactly what users are told), and the isolation every test
 * adds after the documented command (its own tmux socket and state directory).
 */
import { cleanEnv, runProgram } from "./harness.ts";
import { installPackage } from "./agent_clients.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

export interface ClientWork extends AsyncDisposable {
  dir: string;
  /** The directory with the installed `tmuxwright` command. */
  bin: string;
  /** Arguments that keep the server on this test's tmux socket and state directory. */
  isolation: string[];
  /** The environment a client runs in: a home of its own, the installed command first on PATH. */
  env(extra?: Record<string, string>): Record<string, string>;
}

/** This checkout's package installed once per test process (packing takes seconds), removed at exit. */
let installed: Promise<string> | null = null;
function sharedPackage(): Promise<string> {
  installed ??= (async () => {
    const prefix = await Deno.makeTempDir({ dir: "/tmp", prefix: "twclientpkg" });
    globalThis.addEventListener("unload", () => Deno.removeSync(prefix, { recursive: true }));
    return await installPackage(prefix);
  })();
  return installed;
}

/** A work directory with home/ and project/; the `tmuxwright` command is this checkout's package. */
export async function clientWork(prefix: string): Promise<ClientWork> {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix });
  for (const sub of ["home", "project"]) await Deno.mkdir(`${dir}/${sub}`);
  const bin = await sharedPackage();
  return {
    dir,
    bin,
    isolation: ["--socket-path", `${dir}/s`, "--state-dir", `${dir}/state`],
    env: (extra = {}) => cleanEnv({ HOME: `${dir}/home`, PATH: `${bin}:${Deno.env.get("PATH")}`, ...extra }),
    async [Symbol.asyncDispose]() {
      await new Deno.Command("tmux", { args: ["-S", `${dir}/s`, "kill-server"], stderr: "null" }).output();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/** The fenced blocks of docs/install.md in a language (`sh`, `toml`, `json`), in order. */
export async function installBlocks(language: string): Promise<string[]> {
  const text = await Deno.readTextFile(`${ROOT}docs/install.md`);
  return [...text.matchAll(new RegExp("^```" + language + "\\n([\\s\\S]*?)^```$", "gm"))].map((m) => m[1].trim());
}

/** The one block of `language` that matches `pattern` (a test fails when the docs lose it). */
export async function installBlock(language: string, pattern: RegExp): Promise<string> {
  const found = (await installBlocks(language)).filter((block) => pattern.test(block));
  if (found.length !== 1) throw new Error(`docs/install.md has ${found.length} ${language} blocks matching ${pattern}`);
  return found[0];
}

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a client command to its end. */
export function runClient(
  command: string,
  args: string[],
  options: { env: Record<string, string>; cwd: string },
): Promise<Ran> {
  return runProgram(command, args, options);
}

/** A policy file in `dir` that asks before `printf` runs (what the elicitation tests call). */
export async function askPolicy(dir: string): Promise<string> {
  const path = `${dir}/policy.json`;
  await Deno.writeTextFile(path, JSON.stringify({ default: "allow", ask: ["printf *"] }));
  return path;
}

/** The policy decisions the server audited into `dir/audit.jsonl` (the tests pass --audit there). */
// deno-lint-ignore no-explicit-any
export async function policyDecisions(dir: string): Promise<any[]> {
  const lines = (await Deno.readTextFile(`${dir}/audit.jsonl`)).trim().split("\n").map((line) => JSON.parse(line));
  return lines.filter((line) => line.event === "policy");
}

/** The command every test runs and the structured result it must reach the model with. */
export const COMMAND = "printf 'one\\ntwo\\n'; false";
export const RESULT = { output: "one\ntwo", exit_code: 1 };

/** The tool result's JSON text (what the client shows its model), parsed. */
export function resultJson(text: string): Record<string, unknown> {
  const start = text.indexOf("{");
  return JSON.parse(text.slice(start, text.lastIndexOf("}") + 1));
}
