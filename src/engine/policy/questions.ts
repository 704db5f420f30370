/** A policy question that awaits the person's answer (shown on /watch: it needs a person). */
export interface OpenQuestion {
  readonly id: number;
  /** The pane typed into (`%N` on its host), or null for a pane about to be created. */
  readonly pane: string | null;
  readonly host: string;
  /** The command asked about, cut to 500 characters. */
  readonly command: string;
  readonly tool: string;
  /** The MCP client that made the call, when it named itself. */
  readonly agent: string | null;
  /** When it was asked (epoch ms). */
  readonly since: number;
}

/** The questions being asked right now; listeners hear of each one asked and answered. */
export class OpenQuestions {
  readonly #open = new Map<number, OpenQuestion>();
  readonly #listeners = new Set<() => void>();
  #next = 1;

  /** Records a question; the returned function (called once it is answered) removes it. */
  add(question: Omit<OpenQuestion, "id" | "since">): () => void {
    const id = this.#next++;
    this.#open.set(id, { ...question, command: question.command.slice(0, 500), id, since: Date.now() });
    this.#changed();
    return () => {
      if (this.#open.delete(id)) this.#changed();
    };
  }

  list(): OpenQuestion[] {
    return [...this.#open.values()];
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }
}
