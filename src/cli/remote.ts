import type { Config } from "../config.ts";
import { HostRegistry, type LinkSpec } from "../engine/hosts/mod.ts";
import { toToolError } from "../engine/errors.ts";
import { WORKSPACE_NAME } from "../engine/workspaces/mod.ts";
import { ProcessFacts } from "../engine/facts/mod.ts";
import { remoteAttachCommand } from "../tmux/ssh.ts";
import { interactiveLinkCommand, type LinkCommand, linkProgramVersion, typedCommand } from "../tmux/link_command.ts";

/** A short-lived link to the chosen host, for the commands a person runs (doctor, attach). */
function registry(config: Readonly<Config>, role: string): HostRegistry {
  return new HostRegistry(null, {
    hosts: config.hosts,
    sshConfig: config.sshConfig,
    hubSession: `tmuxwright-link-${role}-${Deno.pid}`,
  });
}

/**
 * `tmuxwright doctor --host NAME`: the link's program (ssh, podman, docker), the connection (and
 * for ssh the host key), and the host's tmux, each on one line.
 */
export async function doctorHost(config: Readonly<Config>): Promise<number> {
  const name = config.hostTarget!;
  const hosts = registry(config, "doctor");
  const target = hosts.target(name);
  const program = await programVersion(linkProgramVersion(target));
  console.log(`${program ? "ok  " : "FAIL"} ${target.kind}: ${program ?? "not installed or not on PATH"}`);
  if (!program) return 1;
  console.log(`info host ${name}: ${describe(target)}`);
  try {
    const link = hosts.link(name);
    const [facts] = await link.run("display-message", "-p", "#{version}\t#{socket_path}");
    const [version, socket] = facts.split("\t");
    console.log(
      target.kind === "ssh"
        ? `ok   connection and host key: ssh reached ${target.destination} and accepted its key (BatchMode)`
        : `ok   connection: ${target.kind} exec reached container ${target.container}`,
    );
    console.log(`ok   tmux on ${name}: ${version} (need 3.2 or newer), server ${socket}`);
    const { status } = await link.runShell("true");
    console.log(`${status === 0 ? "ok  " : "FAIL"} commands on ${name} through the connection (run-shell)`);
    if (status !== 0) return 1;
    const backend = await new ProcessFacts(link, config.stateDir, config.processFacts).backend();
    const how = config.processFacts !== null ? "forced" : backend === "proc" ? "/proc is readable" : "no /proc there";
    console.log(`ok   process facts on ${name}: ${backend} (${how})`);
    return 0;
  } catch (error) {
    const failure = toToolError(error);
    console.log(`FAIL ${failure.code}: ${failure.message}`);
    if (failure.hint) console.log(`     ${failure.hint}`);
    return 1;
  } finally {
    await hosts.close();
  }
}

/** A tmuxwright server's session on a remote host (its link's hub: every remote pane it makes lives there). */
const REMOTE_WORKSPACE = /^tmuxwright-link-\d+-[0-9a-f]+$/;

/**
 * `tmuxwright attach --host NAME [WORKSPACE] [--list]`: the workspaces on that host's tmux
 * server (read over a short link), then the user's own ssh with a terminal, attached read-only.
 */
export async function attachHost(config: Readonly<Config>): Promise<number> {
  const name = config.hostTarget!;
  const hosts = registry(config, "attach");
  const target = hosts.target(name);
  let sessions: { name: string; created: number }[];
  try {
    const rows = await hosts.link(name).run("list-sessions", "-F", "#{session_name}\t#{session_created}");
    sessions = rows.map((row) => row.split("\t")).filter(([session]) =>
      WORKSPACE_NAME.test(session) || REMOTE_WORKSPACE.test(session)
    )
      .map(([session, created]) => ({ name: session, created: Number(created) }))
      .sort((a, b) => b.created - a.created);
  } catch (error) {
    const failure = toToolError(error);
    console.error(`${failure.code}: ${failure.message}${failure.hint ? `\n${failure.hint}` : ""}`);
    return 1;
  } finally {
    await hosts.close();
  }
  if (config.attachList || sessions.length === 0) {
    if (sessions.length === 0) console.error(`No tmuxwright workspace is running on host ${name}.`);
    else console.log(sessions.map((s) => `${s.name}  ${new Date(s.created * 1000).toISOString()}`).join("\n"));
    return sessions.length === 0 ? 1 : 0;
  }
  const wanted = config.attachTarget;
  const chosen = wanted === null
    ? sessions[0]
    : sessions.find((s) => s.name === (wanted.startsWith("tmuxwright-") ? wanted : `tmuxwright-${wanted}`));
  if (!chosen) {
    console.error(`No workspace "${wanted}" on host ${name}. Workspaces: ${sessions.map((s) => s.name).join(", ")}`);
    return 1;
  }
  return await runAttach(target, chosen.name);
}

async function runAttach(target: LinkSpec, session: string): Promise<number> {
  const command = interactiveLinkCommand(target, remoteAttachCommand(session));
  console.error(`Attaching read-only to ${session} on host ${target.host}`);
  if (!Deno.stdin.isTerminal()) {
    console.log(typedCommand(command));
    return 0;
  }
  const child = new Deno.Command(command.program, {
    args: command.args,
    ...(command.env ? { env: command.env, clearEnv: true } : {}),
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  return (await child.status).code;
}

/** The program's version line (ssh says it on stderr), or null when it cannot be run. */
async function programVersion(command: LinkCommand): Promise<string | null> {
  // A program that cannot be found fails at once, not in the promise.
  const out = await (async () =>
    await new Deno.Command(command.program, {
      args: command.args,
      ...(command.env ? { env: command.env, clearEnv: true } : {}),
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output())().catch(() => null);
  if (!out?.success) return null;
  const text = new TextDecoder().decode(out.stdout).trim() || new TextDecoder().decode(out.stderr).trim();
  return text.split("\n")[0] || null;
}

/** How the host is reached, as a person would run it. */
function describe(target: LinkSpec): string {
  if (target.kind === "ssh") {
    return `ssh${target.target?.sshConfig ? ` -F ${target.target.sshConfig}` : ""} ${target.destination}`;
  }
  return `${target.kind} exec ${target.container} (${target.destination})`;
}
