/**
 * Nothing an ended session owned may stay in tmux: each ended (or abandoned, or crashed) owner's
 * instance is looked for, on the local tmux server and the lab host, once its grace has passed.
 */
import type { Fleet } from "./fleet.ts";
import type { Ledger } from "./checks.ts";

interface Due {
  instance: string;
  at: number;
  why: string;
}

export class LeakWatch {
  #due: Due[] = [];
  checked = 0;

  constructor(private readonly fleet: Fleet, private readonly ledger: Ledger) {}

  /** Its panes must be gone `graceMs` from now. */
  expectGone(instance: string | null, graceMs: number, why: string): void {
    if (instance) this.#due.push({ instance, at: performance.now() + graceMs, why });
  }

  /** Checks the owners whose grace has passed (all of them with `all`). */
  async sweep(all = false): Promise<void> {
    const now = performance.now();
    const ready = this.#due.filter((d) => all || d.at <= now);
    if (ready.length === 0) return;
    this.#due = this.#due.filter((d) => !ready.includes(d));
    const panes = await ownedPanes(this.fleet);
    for (const due of ready) {
      this.checked++;
      const left = panes.filter((p) => p.instance === due.instance);
      if (left.length > 0) {
        this.ledger.violation(
          "leaks",
          `${due.why}: ${left.length} pane(s) of owner ${due.instance} left in tmux: ${
            left.map((p) => `${p.where}${p.id} (${p.session})`).join(", ")
          }`,
        );
      }
    }
  }

  /** A server crash: what its sessions owned is now reaped by the restarted server and the host lease. */
  postpone(ms: number): void {
    const at = performance.now() + ms;
    for (const due of this.#due) due.at = Math.max(due.at, at);
  }

  get pending(): number {
    return this.#due.length;
  }
}

export interface PaneRow {
  where: string;
  id: string;
  instance: string;
  hub: boolean;
  session: string;
}

/** Every pane on the local tmux server and the lab host, with its owner. */
export async function ownedPanes(fleet: Fleet): Promise<PaneRow[]> {
  const format = "#{pane_id}\x1f#{@tmuxwright_instance}\x1f#{@tmuxwright_hub}\x1f#{session_name}";
  const rows: PaneRow[] = [];
  const parse = (where: string, stdout: string) => {
    for (const line of stdout.split("\n").filter(Boolean)) {
      const [id, instance, hub, session] = line.split("\x1f");
      rows.push({ where, id, instance, hub: hub === "1", session });
    }
  };
  const local = await fleet.tmux("list-panes", "-a", "-F", format);
  if (local.code === 0) parse("", local.stdout);
  if (fleet.lab) parse("alpha:", (await fleet.lab.remoteTmux("alpha", "list-panes", "-a", "-F", format)).stdout);
  return rows;
}
