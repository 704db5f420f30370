import { basename, dirname, extname, join, resolve } from "node:path";
import { ToolError } from "../errors.ts";

/** File name extensions each format may be saved with; the first is added to a name that has none. */
const EXTENSIONS: Record<string, string[]> = {
  text: [".txt"],
  ansi: [".ans", ".txt"],
  html: [".html", ".htm"],
  svg: [".svg"],
  png: [".png"],
};

function refuse(path: string, problem: string, format: string): ToolError {
  return new ToolError(
    "INVALID_ARGUMENT",
    `Cannot save snapshot to ${JSON.stringify(path)}: ${problem}`,
    `Give a file name such as "screen${EXTENSIONS[format]?.[0] ?? ""}"; ` +
      "snapshots are saved in the snapshots folder of the state directory.",
  );
}

/**
 * Where a snapshot named `path` is saved: `<state>/snapshots/<name>`, the only place the server writes files for
 * a person to open. `path` is a file name (or the absolute path an earlier call returned); folders, `..` and any
 * other place are refused. A name without an extension gets the format's; another format's extension is refused,
 * so a `.html` file never holds a PNG.
 */
export function snapshotFile(stateDir: string, path: string, format: string): string {
  const folder = join(stateDir, "snapshots");
  const target = resolve(folder, path);
  const name = basename(target);
  const control = [...name].some((c) => c < " " || c === "\x7f");
  if (dirname(target) !== folder || name.startsWith(".") || control) {
    throw refuse(path, `not a file name in ${JSON.stringify(folder)}, the only folder snapshots are saved in`, format);
  }
  const allowed = EXTENSIONS[format];
  const ext = extname(name).toLowerCase();
  if (ext === "") return target + allowed[0];
  if (!allowed.includes(ext)) throw refuse(path, `${format} snapshots are saved as ${allowed.join(" or ")}`, format);
  return target;
}

/**
 * Writes the file for its owner only, replacing an earlier one. The snapshots folder and the file must be what
 * they say: a symbolic link put in their place (from a pane's shell) would lead the write elsewhere, so it is refused.
 */
export async function writeSnapshotFile(
  stateDir: string,
  target: string,
  data: string | Uint8Array,
  format: string,
): Promise<void> {
  const folder = dirname(target);
  await Deno.mkdir(folder, { recursive: true, mode: 0o700 });
  const [real, expected] = await Promise.all([Deno.realPath(folder), Deno.realPath(stateDir)]);
  const linked = await Deno.lstat(target).then((info) => info.isSymlink, () => false);
  if (real !== join(expected, "snapshots") || linked) {
    throw refuse(basename(target), "the snapshots folder or the file is a symbolic link", format);
  }
  await Deno.writeFile(target, typeof data === "string" ? new TextEncoder().encode(data) : data, { mode: 0o600 });
}
