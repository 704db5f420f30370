import * as z from "zod";
import type { App } from "../../app.ts";
import type { CompletionKind } from "../completion.ts";
import * as patterns from "../../safety/patterns.ts";

/** One prompt argument: on the wire a string, checked by `schema`, completed from live tmux state by `complete`. */
export interface PromptArg {
  name: string;
  description: string;
  required: boolean;
  schema: z.ZodType<string>;
  complete?: CompletionKind;
}

export interface PromptContext {
  app: App;
  tools: ToolNames;
}

/** One prompt: its arguments, when it is offered (the tools it needs are exposed), and its message. */
export interface PromptDefinition {
  name: string;
  title: string;
  description: string;
  args: PromptArg[];
  available(tools: ToolNames): boolean;
  render(args: Record<string, string | undefined>, ctx: PromptContext): Promise<string>;
}

/**
 * The tools this connection lists, by their real names (with `--tool-prefix`), so a prompt names
 * only tools the client can call.
 */
export class ToolNames {
  readonly #exposed: ReadonlySet<string>;

  constructor(readonly prefix: string, exposed: Iterable<string>) {
    this.#exposed = new Set(exposed);
  }

  has(...names: string[]): boolean {
    return names.every((name) => this.#exposed.has(name));
  }

  /** `tool` as the client calls it. */
  name(tool: string): string {
    return this.prefix + tool;
  }

  /** A call written out for the model: `tmux_execute_command {"command":"make"}`. */
  call(tool: string, args: Record<string, unknown> = {}): string {
    const defined = Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined));
    return `\`${this.name(tool)} ${JSON.stringify(defined)}\``;
  }
}

// deno-lint-ignore no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/;
const text = (max: number) =>
  z.string().min(1).max(max).refine((v) => !CONTROL.test(v), { message: "must not contain control characters" });

/** Argument schemas the prompts share. */
export const args = {
  pane: patterns.paneRef,
  session: patterns.sessionRef,
  window: z.string().min(1).max(140).refine(
    (v) => patterns.WINDOW_ID.test(v) || /^[A-Za-z0-9_][A-Za-z0-9 _+@=,\/-]{0,127}:\d{1,5}$/.test(v),
    { message: 'expected a window id like "@3" or session:index like "main:1"' },
  ),
  command: text(10_000),
  regex: text(1_000),
  lines: text(10_000),
  milliseconds: z.string().regex(/^\d{1,7}$/, { message: "expected a number of milliseconds, e.g. 5000" }),
};
