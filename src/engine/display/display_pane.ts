import type { TmuxServer } from "../../tmux/server.ts";
import type { PaneInfo, Workspace } from "../panes/mod.ts";
import { listPanes } from "../panes/mod.ts";

// The pane takes what is typed as its output: no echo, no line editing, cat writes it out.
const DISPLAY_PROGRAM = ["/bin/sh", "-c", "stty -echo -icanon 2>/dev/null; exec cat"];
const TITLE = "tmuxwright notes";

/**
 * A side pane in the workspace's first window for text meant for the person watching, not for the
 * agent: created on first use beside the hub (what `tmux attach` shows first), recreated if it was
 * killed. Text is typed into a `cat` with echo off, so it appears once, exactly, with no file or
 * shell in between.
 */
export class DisplayPane {
  #paneId: string | null = null;
  #creating: Promise<string> | null = null;

  constructor(private readonly tmux: TmuxServer, private readonly workspace: Workspace) {}

  /** Writes text (control characters other than newline and tab removed); `clear` empties the pane first. */
  async write(text: string, clear: boolean): Promise<PaneInfo> {
    const pane = await this.#pane();
    const commands: string[][] = [];
    if (clear) commands.push(["send-keys", "-R", "-t", pane.paneId], ["clear-history", "-t", pane.paneId]);
    const clean = sanitize(text);
    if (clean !== "") {
      commands.push(["send-keys", "-t", pane.paneId, "-l", "--", clean.endsWith("\n") ? clean : `${clean}\n`]);
    }
    if (commands.length > 0) await this.tmux.batch(commands);
    return pane;
  }

  async #pane(): Promise<PaneInfo> {
    if (this.#paneId !== null) {
      const alive = (await listPanes(this.tmux)).find((p) => p.paneId === this.#paneId && !p.dead);
      if (alive) return alive;
      this.#paneId = null;
    }
    this.#creating ??= this.#create().finally(() => this.#creating = null);
    const id = await this.#creating;
    return (await listPanes(this.tmux)).find((p) => p.paneId === id)!;
  }

  async #create(): Promise<string> {
    const session = await this.workspace.open(); // makes sure the workspace exists
    const hub = (await listPanes(this.tmux)).find((p) => this.workspace.isHub(p) && p.sessionId === session);
    const { pane } = await this.workspace.createPane({
      argv: DISPLAY_PROGRAM,
      ...(hub ? { splitFrom: hub.paneId, direction: "right" as const, size: 40 } : {}),
    });
    await this.tmux.run("select-pane", "-t", pane.paneId, "-T", TITLE);
    await this.#untilCatRuns(pane.paneId);
    this.#paneId = pane.paneId;
    return pane.paneId;
  }

  /** Text typed before `stty -echo` ran would show twice (echo + cat); start-up takes a few ms, once. */
  async #untilCatRuns(paneId: string): Promise<void> {
    const deadline = performance.now() + 3000;
    while (performance.now() < deadline) {
      const [command] = await this.tmux.run("display-message", "-p", "-t", paneId, "#{pane_current_command}");
      if (command === "cat") return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}

/** One display pane per workspace: each owner's notes go beside its own hub. */
export class DisplayPanes {
  readonly #byWorkspace = new WeakMap<Workspace, DisplayPane>();

  constructor(private readonly tmux: TmuxServer) {}

  write(workspace: Workspace, text: string, clear: boolean): Promise<PaneInfo> {
    let display = this.#byWorkspace.get(workspace);
    if (!display) this.#byWorkspace.set(workspace, display = new DisplayPane(this.tmux, workspace));
    return display.write(text, clear);
  }
}

/** Terminal control sequences from an agent never reach a person's terminal. */
function sanitize(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/\r\n?/g, "\n").replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, "");
}
