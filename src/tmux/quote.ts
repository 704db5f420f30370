/**
 * Quoting for tmux command lines sent over the control connection.
 *
 * Every argument becomes one double-quoted tmux word. Inside double quotes tmux's parser
 * expands `$VAR` and a leading `~` (measured: `"~"` became the home directory), interprets `\`
 * escapes, and a raw newline would end the command and start another one, so `\`, `"`, `$` and
 * `~` are escaped and every control byte is written as
 * a three-digit octal escape. The result never contains a raw CR or LF.
 */
export function quoteArg(value: string): string {
  let out = '"';
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    if (code === 0) throw new RangeError("tmux arguments cannot contain a NUL byte");
    if (ch === "\\" || ch === '"' || ch === "$" || ch === "~") out += "\\" + ch;
    else if (code < 0x20 || code === 0x7f) out += "\\" + code.toString(8).padStart(3, "0");
    else if (code >= 0xd800 && code <= 0xdfff) out += "\uFFFD"; // lone surrogate: not encodable
    else out += ch;
  }
  return out + '"';
}

/**
 * Quoted long arguments a connection sends again and again (the format templates of every listing:
 * quoting one char by char was a tenth of a list_panes call's CPU). Bounded; owned by its connection.
 */
export class QuoteMemo {
  readonly #quoted = new Map<string, string>();

  quote(value: string): string {
    if (value.length < 64) return quoteArg(value);
    let quoted = this.#quoted.get(value);
    if (quoted === undefined) {
      if (this.#quoted.size >= 128) this.#quoted.clear();
      this.#quoted.set(value, quoted = quoteArg(value));
    }
    return quoted;
  }
}

/** One control-mode command line: the command name followed by quoted arguments. */
export function commandLine(args: readonly string[], memo?: QuoteMemo): string {
  if (args.length === 0) throw new RangeError("empty tmux command");
  const [name, ...rest] = args;
  if (!/^[a-z-]+$/.test(name)) throw new RangeError(`invalid tmux command name: ${JSON.stringify(name)}`);
  return [name, ...rest.map((arg) => memo ? memo.quote(arg) : quoteArg(arg))].join(" ");
}

/**
 * Escapes text for arguments that tmux expands as a format (`-c`, `-n`, `pipe-pane` commands):
 * `#` starts a format or a `#()` job, so every `#` is doubled.
 */
export function escapeFormat(value: string): string {
  return value.replaceAll("#", "##");
}
