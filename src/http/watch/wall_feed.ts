import type { WatchBackend, WatchHost, WatchPane, WatchQuestion } from "./backend.ts";
import { type WallFrame, WallTile } from "./wall_tile.ts";

/** Each tile is read at most this often… */
const FRAME_MS = 250;
/** …and all tiles together at most this many times a second (with more busy tiles, each less often). */
const FRAMES_PER_SECOND = 40;
/** How often the wall looks for output: a stat of each log, a counter of each remote pane. */
const TICK_MS = 250;
/** A pane without a cheap sign of output has its screen read (and compared) this often. */
const SCREEN_POLL_MS = 1000;
/** The pane list is read again this often (tmux's command in front, exits). */
const LIST_MS = 1000;
/** Process-fact reads at once, and a second at most (each runs a few processes through tmux). */
const PROBES_AT_ONCE = 4;
const PROBES_PER_SECOND = 4;
/** The feed goes on this long after the last page left (a page reconnecting finds it as it was). */
const LINGER_MS = 10_000;
/** `active_at` alone changes the published list at most this often (frames carry it in between). */
const ACTIVITY_MS = 2000;

/** A pane on the wall: tmux's facts, its state, its last output, the policy question it waits on. */
export interface WallPane extends WatchPane {
  active_at: number | null;
  /** The command a policy question about this pane asks the person about, or null. */
  question: string | null;
  /** False until its process facts have been read once: its state is then only tmux's guess. */
  known: boolean;
}

export interface WallListener {
  panes(list: WallPane[], json: string): void;
  hosts(list: WatchHost[], json: string): void;
  questions(list: WatchQuestion[], json: string): void;
  frame(frame: WallFrame, json: string): void;
  /** After each look: a listener that held frames back (a slow page) may send the latest now. */
  tick(): void;
}

/**
 * The wall's one source, shared by every open page: while any page listens, it follows every
 * host's panes (output signs, frames, process facts) and tells each listener; with none it does
 * nothing. A page's cost to the server is bounded per tile (FRAME_MS) and in all (FRAMES_PER_SECOND),
 * however fast panes write.
 */
export class WallFeed {
  readonly #tiles = new Map<string, WallTile>();
  readonly #listeners = new Set<WallListener>();
  #stops: (() => void)[] = [];
  #timer: ReturnType<typeof setInterval> | undefined;
  #linger: ReturnType<typeof setTimeout> | undefined;
  /** Process-fact reads the wall may still start this second. */
  #probeBudget = { left: PROBES_PER_SECOND, at: 0 };
  /** The pane list has been read since the start. */
  #listed = false;
  #listAt = 0;
  #listing: Promise<void> | null = null;
  #listAgain = false;
  /** What listeners were last told (JSON), and when the list last went out. */
  #published = { panes: "", activity: "", hosts: "", questions: "", at: 0 };
  #last: { panes: WallPane[]; panesJson: string; hosts: WatchHost[] } = { panes: [], panesJson: "", hosts: [] };
  #questions: WatchQuestion[] = [];

  constructor(private readonly backend: WatchBackend) {}

  /** Starts following on the first listener; the listener gets the wall as it stands at once. */
  subscribe(listener: WallListener): () => void {
    this.#listeners.add(listener);
    clearTimeout(this.#linger);
    if (this.#timer === undefined) this.#start();
    else this.#greet(listener);
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size > 0) return;
      clearTimeout(this.#linger);
      this.#linger = setTimeout(() => this.#stop(), LINGER_MS);
    };
  }

  /** The latest frame of a pane (for a listener that held it back). */
  frame(paneId: string): { frame: WallFrame; json: string } | null {
    const tile = this.#tiles.get(paneId);
    return tile?.frame ? { frame: tile.frame, json: tile.frameJson } : null;
  }

  #start(): void {
    this.#questions = this.backend.questions();
    this.#stops = [
      this.backend.onPanesChanged(() => this.#relist()),
      this.backend.onQuestions(() => {
        this.#questions = this.backend.questions();
        this.#publish(true);
      }),
    ];
    this.#published = { panes: "", activity: "", hosts: "", questions: JSON.stringify(this.#questions), at: 0 };
    this.#last = { panes: [], panesJson: "", hosts: [] };
    this.#listed = false;
    this.#relist();
    this.#timer = setInterval(() => this.#tick(), TICK_MS);
  }

  #stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#stops.forEach((stop) => stop());
    for (const tile of this.#tiles.values()) tile.close();
    this.#tiles.clear();
  }

  #greet(listener: WallListener): void {
    const { hosts, questions } = this.#published;
    if (hosts) listener.hosts(this.#last.hosts, hosts);
    if (this.#last.panesJson) listener.panes(this.#last.panes, this.#last.panesJson);
    if (questions) listener.questions(this.#questions, questions);
    for (const tile of this.#tiles.values()) if (tile.frame) listener.frame(tile.frame, tile.frameJson);
  }

  /** Reads the pane list again (one at a time; a request meanwhile reads it once more after). */
  #relist(): void {
    if (this.#listing) return void (this.#listAgain = true);
    this.#listAt = performance.now();
    this.#listing = this.backend.panes().catch(() => null).then((panes) => {
      if (panes && this.#timer !== undefined) this.#merge(panes);
    }).finally(() => {
      this.#listing = null;
      if (this.#listAgain) {
        this.#listAgain = false;
        this.#relist();
      }
    });
  }

  #merge(panes: WatchPane[]): void {
    this.#listed = true;
    const seen = new Set<string>();
    for (const pane of panes) {
      seen.add(pane.pane_id);
      const tile = this.#tiles.get(pane.pane_id);
      if (tile) tile.update(pane);
      else this.#tiles.set(pane.pane_id, new WallTile(this.backend, pane));
    }
    for (const [id, tile] of this.#tiles) {
      if (seen.has(id)) continue;
      tile.close();
      this.#tiles.delete(id);
    }
    this.#publish(false);
  }

  #tick(): void {
    const now = performance.now();
    if (now - this.#listAt >= LIST_MS) this.#relist();
    const tiles = [...this.#tiles.values()];
    const busy = tiles.filter((t) => now - t.changedAt < 1000).length;
    const frameEvery = Math.max(FRAME_MS, (1000 * busy) / FRAMES_PER_SECOND);
    const lookEvery = Math.max(TICK_MS, tiles.length * 4); // a stat each: bounded for hundreds of panes
    for (const tile of tiles) {
      if (!tile.busy) {
        const look = now >= tile.checkAt;
        if (look) tile.lookEvery = tile.marked ? lookEvery : Math.max(SCREEN_POLL_MS, lookEvery);
        if (look) tile.checkAt = now + tile.lookEvery;
        tile.busy = look || (tile.dirty && now - tile.frameAt >= frameEvery);
        if (tile.busy) void this.#look(tile, look, frameEvery).finally(() => tile.busy = false);
      }
    }
    this.#probe(tiles, now);
    this.#publish(false);
    for (const listener of this.#listeners) listener.tick();
  }

  /** Reads the process facts of the panes that are due, longest waiting first, within the budget. */
  #probe(tiles: WallTile[], now: number): void {
    if (now - this.#probeBudget.at >= 1000) this.#probeBudget = { left: PROBES_PER_SECOND, at: now };
    // Panes never read yet go first and outside the budget (within PROBES_AT_ONCE): a new wall is soon sure.
    const running = tiles.filter((t) => t.probing).length;
    const due = tiles.filter((t) => t.probeDue(now)).sort((a, b) => a.probedAt - b.probedAt);
    const fresh = due.filter((t) => !t.known).slice(0, Math.max(0, PROBES_AT_ONCE - running));
    const room = Math.min(PROBES_AT_ONCE - running - fresh.length, this.#probeBudget.left);
    const later = due.filter((t) => t.known).slice(0, Math.max(0, room));
    this.#probeBudget.left -= later.length;
    for (const tile of [...fresh, ...later]) {
      void tile.probe(this.#questionOn(tile.pane.pane_id) !== null).then(() => this.#publish(false));
    }
  }

  /** Looks for output (when due), then reads a frame when output came and the tile's frame is due. */
  async #look(tile: WallTile, look: boolean, frameEvery: number): Promise<void> {
    if (look && await tile.check() && !tile.marked) return this.#sendFrame(tile); // the look read the screen
    if (tile.dirty && performance.now() - tile.frameAt >= frameEvery && await tile.read()) this.#sendFrame(tile);
  }

  #sendFrame(tile: WallTile): void {
    if (!tile.frame) return;
    for (const listener of this.#listeners) listener.frame(tile.frame, tile.frameJson);
  }

  #questionOn(paneId: string): WatchQuestion | null {
    return this.#questions.find((q) => q.pane_id === paneId) ?? null;
  }

  /** Tells listeners of a changed list, link states or questions; activity alone at most every ACTIVITY_MS. */
  #publish(questionsChanged: boolean): void {
    const now = performance.now();
    const hosts = this.backend.hosts();
    const hostsJson = JSON.stringify(hosts);
    if (hostsJson !== this.#published.hosts) {
      this.#published.hosts = hostsJson;
      this.#last.hosts = hosts;
      for (const listener of this.#listeners) listener.hosts(hosts, hostsJson);
    }
    if (questionsChanged) {
      const json = JSON.stringify(this.#questions);
      this.#published.questions = json;
      for (const listener of this.#listeners) listener.questions(this.#questions, json);
    }
    if (!this.#listed) return; // no empty list before the first listing
    const tiles = [...this.#tiles.values()];
    const list = tiles.map((tile): WallPane => {
      const question = this.#questionOn(tile.pane.pane_id);
      const status = tile.status(now);
      return {
        ...tile.pane,
        ...status,
        needs_person: status.needs_person || question !== null,
        question: question?.command ?? null,
        active_at: tile.activeAt,
        known: tile.known,
      };
    });
    const panes = JSON.stringify(list.map((p) => ({ ...p, active_at: null })));
    const activity = JSON.stringify(list.map((p) => p.active_at));
    const due = activity !== this.#published.activity && now - this.#published.at >= ACTIVITY_MS;
    if (panes === this.#published.panes && !due) return;
    this.#published = { ...this.#published, panes, activity, at: now };
    this.#last.panes = list;
    this.#last.panesJson = JSON.stringify(list);
    for (const listener of this.#listeners) listener.panes(list, this.#last.panesJson);
  }
}
