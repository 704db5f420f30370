/**
 * Terminal bytes → plain text, the way the text would read on screen line by line: escape
 * sequences removed, `\r` returns to the line start (progress bars collapse to their final
 * state), `\b` steps back, `ESC[K` erases to the end of the line. One renderer for every tool
 * that returns output from a byte stream. With `keepCursorBlanks`, the last line, when the input
 * does not end with a newline, keeps its blanks up to the cursor.
 */
export function renderTerminalText(input: string, keepCursorBlanks = false): string {
  const out: string[] = [];
  let line: string[] = [];
  let col = 0;
  const put = (ch: string) => {
    while (line.length < col) line.push(" ");
    line[col++] = ch;
  };
  for (let i = 0; i < input.length; i++) {
    const ch = input[i];
    const code = ch.charCodeAt(0);
    if (ch === "\n") {
      out.push(line.join("").trimEnd());
      line = [];
      col = 0;
    } else if (ch === "\r") {
      col = 0;
    } else if (ch === "\b") {
      col = Math.max(0, col - 1);
    } else if (ch === "\t") {
      col = Math.min(col + 8 - (col % 8), 100_000);
    } else if (ch === "\x1b") {
      i = skipEscape(input, i, (final, params) => {
        if (final === "K") {
          const mode = params === "" ? 0 : Number(params);
          if (mode === 0) line.length = Math.min(line.length, col);
          else if (mode === 1) { for (let c = 0; c < Math.min(col + 1, line.length); c++) line[c] = " "; }
          else line = [];
        } else if (final === "G") {
          col = Math.max(0, (Number(params) || 1) - 1);
        } else if (final === "C") {
          col += Number(params) || 1;
        } else if (final === "D") {
          col = Math.max(0, col - (Number(params) || 1));
        }
      });
    } else if (code < 0x20 || code === 0x7f) {
      // other control characters (bell, shift-in/out) are not visible
    } else {
      put(ch);
    }
  }
  if (line.length > 0 || (keepCursorBlanks && col > 0)) {
    // An unterminated last line (a prompt) keeps the blanks written before the cursor: `name? `.
    const text = line.join("");
    const trimmed = text.trimEnd();
    out.push(keepCursorBlanks ? text.slice(0, Math.max(trimmed.length, col)).padEnd(col) : trimmed);
  }
  return out.join("\n");
}

/**
 * The line a program is still writing, as it reads on screen with the cursor after it: trailing
 * blanks before the cursor are kept, so a prompt `name? ` matches `name\? $` (`renderTerminalText`
 * with `keepCursorBlanks`; complete lines never keep trailing blanks).
 */
export function renderPartialLine(raw: string): string {
  return renderTerminalText(raw, true);
}

/** Returns the index of the last character of the escape sequence starting at `start`. */
function skipEscape(s: string, start: number, onCsi: (final: string, params: string) => void): number {
  const next = s[start + 1];
  if (next === "[") {
    let j = start + 2;
    while (j < s.length && !/[\x40-\x7e]/.test(s[j])) j++;
    if (j < s.length) onCsi(s[j], s.slice(start + 2, j));
    return j;
  }
  if (next === "]" || next === "P" || next === "_" || next === "^" || next === "X") {
    // OSC / DCS / APC / PM / SOS: until BEL or ST (ESC \)
    let j = start + 2;
    while (j < s.length && s[j] !== "\x07" && !(s[j] === "\x1b" && s[j + 1] === "\\")) j++;
    return s[j] === "\x1b" ? j + 1 : j;
  }
  if (next === "(" || next === ")" || next === "*" || next === "+" || next === "#" || next === "%") return start + 2;
  return start + 1; // two-character escape such as ESC = or ESC 7
}
