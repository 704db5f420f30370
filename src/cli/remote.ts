import type { Config } from "../config.ts";
import { HostRegistry, type SshTarget } from "../engine/hosts/mod.ts";
import { toToolError } from "../engine/errors.ts";
import { WORKSPACE_NAME } from "../engine/workspaces/mod.ts";
import { ProcessFacts } from "../engine/facts/mod.ts";
import { interactiveSshArgs, remoteAttachCommand } from "../tmux/ssh.ts";

/** A short-lived link to the chosen host, for the commands a person runs (doctor, attach). */
function registry(config: Readonly<Config>, role: string): HostRegistry {
  return new HostRegistry(null, {
    hosts: config.hosts,
    sshConfig: config.sshConfig,
    hubSession: `tmuxwright-link-${role}-${Deno.pid}`,
  });
}

/** `tmuxwright doctor --host NAME`: ssh, host key and the host's tmux, each on one line. */
export async function doctorHost(config: Readonly<Config>): Promise<number> {
  const name = config.hostTarget!;
  const hosts = registry(config, "doctor");
  const target = hosts.target(name);
  const ssh = await new Deno.Command("ssh", { args: ["-V"], stdout: "null", stderr: "piped" }).output()
    .then((out) => new TextDecoder().decode(out.stderr).trim()).catch(() => null);
  console.log(`${ssh ? "ok  " : "FAIL"} ssh: ${ssh ?? "not installed or not on PATH"}`);
  if (!ssh) return 1;
  console.log(`info host ${name}: ssh${target.sshConfig ? ` -F ${target.sshConfig}` : ""} ${target.destination}`);
  try {
    const link = hosts.link(name);
    const [facts] = await link.run("display-message", "-p", "#{version}\t#{socket_path}");
    const [version, socket] = facts.split("\t");
    console.log(`ok   connection and host key: ssh reached ${target.destination} and accepted its key (BatchMode)`);
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

async function runAttach(target: SshTarget, session: string): Promise<number> {
  const args = interactiveSshArgs(target, remoteAttachCommand(session));
  console.error(`Attaching read-only to ${session} on host ${target.host}`);
  if (!Deno.stdin.isTerminal()) {
    console.log(["ssh", ...args.slice(0, -1), `'${args.at(-1)}'`].join(" "));
    return 0;
  }
  const child = new Deno.Command("ssh", { args, stdin: "inherit", stdout: "inherit", stderr: "inherit" }).spawn();
  return (await child.status).code;
}
