import type { Config } from "./config.ts";
import { AuditLog, AuditOpenError } from "./audit/audit.ts";
import { ConfigError } from "./config.ts";
import { prepareDirectories, reason } from "./state_dir.ts";
import { TmuxServer, type TmuxStatus } from "./tmux/server.ts";
import { PaneSetWatcher, Paster, Workspace, WorkspaceOwner } from "./engine/panes/mod.ts";
import { linkDir, newInstanceId } from "./engine/workspaces/mod.ts";
import { logDir, OutputSpool, PaneOutput, RemoteLogs } from "./engine/output/mod.ts";
import { Executor, type JobTable, ProcessManager } from "./engine/exec/mod.ts";
import { PaneEnds } from "./engine/watch/mod.ts";
import { ProcessFacts } from "./engine/facts/mod.ts";
import { ScreenRenderer } from "./engine/screen/mod.ts";
import { BufferRegistry } from "./engine/buffers/mod.ts";
import { Channels } from "./engine/channels/mod.ts";
import { DisplayPanes } from "./engine/display/mod.ts";
import { PatternCompiler } from "./patterns/mod.ts";
import { ShellIntegration } from "./engine/integration/mod.ts";
import { type LogEvent, ServerEvents } from "./engine/events/mod.ts";
import { HostRegistry, RemoteShells } from "./engine/hosts/mod.ts";
import { PolicyGate } from "./engine/policy/mod.ts";
import { CommandJudge } from "./policy/mod.ts";
import { prepareClaudeHooks } from "./engine/agents/mod.ts";

/**
 * Every long-lived service of one server process, built once here and handed to the transports
 * (stdio, HTTP), which only adapt requests to it. One tmux control connection, one workspace.
 */
/**
 * The engine services bound to one host's link. `local` is the app's own; a remote host's are
 * made on first use with its link, so exec, waits, logs and processes work there unchanged.
 */
export interface HostServices {
  readonly tmux: TmuxServer;
  readonly output: PaneOutput;
  readonly proc: ProcessFacts;
  readonly executor: Executor;
  readonly processes: ProcessManager;
  readonly jobs: JobTable;
  readonly paster: Paster;
  readonly buffers: BufferRegistry;
  readonly display: DisplayPanes;
  /** When a pane of this host can no longer answer: every wait ends then. */
  readonly paneEnds: PaneEnds;
}

export interface App extends HostServices {
  readonly config: Readonly<Config>;
  /** The tmux server: one persistent control-mode connection plus the one-shot path. */
  readonly tmux: TmuxServer;
  /** The hosts agents may use: `local` (this `tmux`) and each `--host`, each with its link. */
  readonly hosts: HostRegistry;
  /**
   * The process owner: stdio, the bridge and --shared-workspace act as it. Over HTTP each MCP
   * session acts as an owner of its own (`newOwner`), and the MCP layer's view of the app has
   * that owner here instead.
   */
  readonly owner: WorkspaceOwner;
  /** `owner.workspaceOn("local")`: the session the control connection attaches to (the hub). */
  readonly workspace: Workspace;
  /** A fresh owner (own instance id, names and panes); it ends with `end()`, or at `close()` at the latest. */
  newOwner(): WorkspaceOwner;
  /** Live output bytes of any pane (log follower for owned panes, %output for others). */
  readonly output: PaneOutput;
  /** Budgeted output of panes without a log, readable with read_logs (byte mode). */
  readonly spool: OutputSpool;
  /** Process facts (/proc or ps), read through tmux (the sandbox lets Deno read neither). */
  readonly proc: ProcessFacts;
  /** Commands typed into panes' shells, one at a time per pane. */
  readonly executor: Executor;
  /** Long-running processes: started, awaited until ready, stopped with proof. */
  readonly processes: ProcessManager;
  /** The command each pane was last started for (exec types them; watch_pane's `exit` waits on them). */
  readonly jobs: JobTable;
  /** Multi-line input pasted through a buffer namespaced to this server. */
  readonly paster: Paster;
  /** Renders screens as HTML/SVG; loads the terminal emulator on first use. */
  readonly screens: ScreenRenderer;
  /** Paste buffers this server made (only those can be shown, pasted or deleted). */
  readonly buffers: BufferRegistry;
  /** tmux wait-for channels, waited on outside the control connection. */
  readonly channels: Channels;
  /** The side pane of notes for the person watching (write_to_display). */
  readonly display: DisplayPanes;
  readonly audit: AuditLog;
  /** The command policy (--policy), asked where text reaches a shell or a program starts. */
  readonly gate: PolicyGate;
  /** Compiles every pattern a caller supplies, matched in linear time (loads its engine on first use). */
  readonly patterns: PatternCompiler;
  /**
   * Things that happen outside any one request: log events (tmux reconnects, reaped workspaces,
   * slow tmux commands, refused calls), trigger events (watch_pane, start_process) and pane set
   * changes. Each MCP connection subscribes while it is open; log events also go to stderr.
   */
  readonly events: ServerEvents;
  /** The services of a configured host (`local`: these); HOST_NOT_CONFIGURED for any other name. */
  onHost(host: string): HostServices;
  /** Ends every owner's workspaces (unless --keep) and releases every resource; bounded in time by the caller. */
  close(): Promise<void>;
}

/**
 * Builds the app from a validated configuration. Nothing talks to tmux until the first call; the
 * state directory and the audit files exist before anything else uses them. A path that cannot be
 * used is a ConfigError (one line, naming the path, the reason and the flag).
 */
export async function createApp(config: Readonly<Config>): Promise<App> {
  await prepareDirectories(config);
  await prepareClaudeHooks(config.stateDir); // the hooks a Claude Code started in an owned pane loads
  const audit = await openAudit(config);
  const events = new ServerEvents();
  const gate = new PolicyGate(config.policy ? new CommandJudge(config.policy) : null, (d) => audit.decision(d));
  events.subscribe((event) => event.kind === "log" && console.error(stderrLine(event)));
  const integration = new ShellIntegration(config.stateDir);
  // The link's control connection attaches to the process owner's workspace, prepared on every connect.
  const tmux: TmuxServer = new TmuxServer(config.socketArgs, () => workspace.prepare(), linkDir(config.stateDir));
  let slots = 1; // session names: the process owner has slot 1, each session owner the next
  const workspaceFor = (instance: string, hub: boolean, host: string): Workspace => {
    if (host !== "local") {
      const { logs, shells } = remoteHost(host);
      const remote = { hubSession: hosts.hubSession, logs, shells };
      return new Workspace(config, events, hosts.link(host), { instance, hub: false, firstSlot: 0, remote, gate });
    }
    return new Workspace(config, events, tmux, { instance, hub, firstSlot: hub ? 1 : ++slots, gate }, integration);
  };
  const owner = new WorkspaceOwner(newInstanceId(config.pid), (instance, host) => workspaceFor(instance, true, host));
  const workspace = owner.workspaceOn("local");
  const sessionOwners = new Set<WorkspaceOwner>();
  tmux.onStatus((status) => logTmuxStatus(events, status));
  const paneSet = new PaneSetWatcher(tmux, events);
  const output = new PaneOutput(tmux, logDir(config.stateDir));
  const spool = new OutputSpool();
  const proc = new ProcessFacts(tmux, config.stateDir, config.processFacts);
  const paneEnds = new PaneEnds(tmux);
  const executor = new Executor(tmux, output, config.stateDir, spool, proc, gate, paneEnds);
  const buffers = new BufferRegistry(tmux, config.pid);
  const channels = new Channels(tmux);
  const hosts: HostRegistry = new HostRegistry(tmux, {
    hosts: config.hosts,
    sshConfig: config.sshConfig,
    hubSession: `tmuxwright-link-${workspace.instance}`,
    keep: config.keep,
    lease: {
      ttlSec: config.hostLeaseSec,
      onReaped: (host, sessions) =>
        events.log(
          "info",
          "workspace",
          `removed on host ${host} the panes of servers that are gone: ${sessions.join(", ")}`,
        ),
    },
  });
  // Each remote link watches its host's pane set too (list_changed, /watch, and RecentPanes).
  const remoteSets = hosts.names().slice(1).map((name) => {
    hosts.link(name).onStatus((status) => logTmuxStatus(events, status, name));
    return new PaneSetWatcher(hosts.link(name), events);
  });
  const local: HostServices = {
    tmux,
    output,
    proc,
    executor,
    processes: new ProcessManager(tmux, executor, events, proc),
    jobs: executor.jobs,
    paster: new Paster(tmux, config.pid),
    buffers,
    display: new DisplayPanes(tmux),
    paneEnds,
  };
  type RemoteServices = HostServices & { logs: RemoteLogs; shells: RemoteShells };
  const remotes = new Map<string, RemoteServices>();
  const remoteHost = (name: string): RemoteServices => {
    let services = remotes.get(name);
    if (!services) {
      const link = hosts.link(name); // HOST_NOT_CONFIGURED for anything else
      const hostOutput = new PaneOutput(link, logDir(config.stateDir));
      const hostProc = new ProcessFacts(link, config.stateDir, config.processFacts);
      const hostEnds = new PaneEnds(link);
      const hostExecutor = new Executor(link, hostOutput, config.stateDir, spool, hostProc, gate, hostEnds);
      services = {
        tmux: link,
        output: hostOutput,
        proc: hostProc,
        executor: hostExecutor,
        processes: new ProcessManager(link, hostExecutor, events, hostProc),
        jobs: hostExecutor.jobs,
        paster: new Paster(link, config.pid),
        buffers: new BufferRegistry(link, config.pid),
        display: new DisplayPanes(link),
        paneEnds: hostEnds,
        logs: new RemoteLogs(link, { maxBytes: config.logMaxBytes, keep: config.logKeep }),
        shells: new RemoteShells(link),
      };
      remotes.set(name, services);
    }
    return services;
  };
  return {
    ...local,
    config,
    hosts,
    owner,
    workspace,
    newOwner() {
      const created: WorkspaceOwner = new WorkspaceOwner(
        newInstanceId(config.pid),
        (instance, host) => workspaceFor(instance, false, host),
        () => sessionOwners.delete(created),
      );
      sessionOwners.add(created);
      return created;
    },
    spool,
    screens: new ScreenRenderer(),
    channels,
    onHost: (host) => host === "local" ? local : remoteHost(host),
    audit,
    gate,
    patterns: new PatternCompiler(),
    events,
    async close() {
      try {
        channels.close();
        paneEnds.close();
        for (const services of remotes.values()) services.paneEnds.close();
        await buffers.close();
        paneSet.close();
        remoteSets.forEach((watcher) => watcher.close());
        // Session owners first, over one-shot calls (and their remote panes while the links are up); then the hub.
        await Promise.all([...sessionOwners].map((o) => o.end()));
        // The hosts and this machine at once: a slow link or a host's lock must not use up the
        // exit's budget before the local workspace is removed.
        const remoteEnd = async () => {
          await owner.endRemote();
          // A host whose link is down is not dialled to tidy up: its lease ends what is left there.
          await Promise.all(
            [...remotes.values()].filter((r) => r.tmux.connected)
              .map((r) => Promise.all([r.buffers.close(), r.executor.typist.removeRemoteFiles(), r.shells.remove()])),
          );
          await hosts.close();
        };
        await Promise.all([remoteEnd(), tmux.close().then(() => owner.end())]);
      } finally {
        for (const services of remotes.values()) {
          services.logs.close();
          services.output.close();
        }
        output.close();
        audit.close();
      }
    },
  };
}

async function openAudit(config: Readonly<Config>): Promise<AuditLog> {
  try {
    return await AuditLog.open({ file: config.audit, fullDir: config.auditFull, payloads: config.auditPayloads });
  } catch (error) {
    if (!(error instanceof AuditOpenError)) throw error;
    const what = error.flag === "--audit" ? "open the audit file" : "create the --audit-full directory";
    throw new ConfigError(
      `Cannot ${what} "${error.path}": ${reason(error.cause)}; choose another path with ${error.flag}`,
    );
  }
}

function stderrLine(event: LogEvent): string {
  return `[tmuxwright] ${event.level}: ${event.logger}: ${event.message}`;
}

function logTmuxStatus(events: ServerEvents, status: TmuxStatus, host = "local"): void {
  const on = host === "local" ? "" : ` to host ${host}`;
  if (status.kind === "connected" && status.reconnect) {
    const restarted = status.restarted ? ` (its tmux server was restarted: the panes from before are gone)` : "";
    events.log("info", "tmux", `control connection${on} re-established${restarted}`);
  }
  if (status.kind === "lost") events.log("warning", "tmux", `control connection${on} lost: ${status.reason}`);
  if (status.kind === "slow") events.log("notice", "tmux", `slow tmux command: ${status.command} took ${status.ms} ms`);
}
