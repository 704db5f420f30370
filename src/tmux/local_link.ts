import { join } from "node:path";
import { linkScript } from "./host_session_lock.ts";
import { tmuxOneShot, UTF8 } from "./oneshot.ts";
import { escapeFormat } from "./quote.ts";
import { TmuxError } from "./errors.ts";
import type { ControlIo } from "./control_io.ts";

/**
 * A local control client behind the same link script as a host's (src/tmux/host_session_lock.ts),
 * so that its end is guarded however this process ends: tmux itself runs the script
 * (`run-shell -b`), and this process talks to it through two fifos in a private directory of
 * the state directory (Deno may start only tmux, and cannot make fifos: tmux makes them too).
 * When this process dies, the script sees its input end and ends the client under the lock; a
 * client whose stdin was this process's pipe would have ended at once, unguarded.
 */
export async function openLocalLink(
  socketArgs: readonly string[],
  attachArgs: readonly string[],
  session: string,
  root: string,
  limitMs: number,
): Promise<{ io: ControlIo; why: () => Promise<string> }> {
  await Deno.mkdir(root, { recursive: true, mode: 0o700 });
  const dir = await Deno.makeTempDir({ dir: root, prefix: "link-" });
  const [input, output, errors] = ["in", "out", "err"].map((name) => join(dir, name));
  const client = shWords(["tmux", ...UTF8, ...socketArgs, ...attachArgs]);
  // The directory goes with the script's end too: a server that was killed cannot remove it.
  const script = `exec <${shWord(input)} >${shWord(output)} 2>${shWord(errors)}; ` +
    `rm -f ${shWord(input)} ${shWord(output)}; ${
      linkScript({ session, client, makeHub: false, orphans: { ownerPid: Deno.pid } })
    } rm -rf ${shWord(dir)}`;
  const started = await tmuxOneShot([
    ...socketArgs,
    "run-shell",
    escapeFormat(`mkfifo -m 600 ${shWord(input)} ${shWord(output)}`),
    ";",
    "run-shell",
    "-b",
    escapeFormat(script),
  ]);
  const why = async () => (await Deno.readTextFile(errors).catch(() => "")).trim();
  if (started.code !== 0) {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    throw new TmuxError("server_gone", `Cannot start a control client: ${started.stderr.trim()}`);
  }
  // Each open waits for the script's end of its fifo; a script that never opens it is unblocked by opening that end here.
  const [reader, writer] = await Promise.all([
    openFifo(output, { read: true }, { write: true }, limitMs),
    openFifo(input, { write: true }, { read: true }, limitMs),
  ]);
  if (!reader || !writer) {
    reader?.close();
    writer?.close();
    const reason = await why();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    throw new TmuxError("server_gone", `Cannot start a control client: ${reason || `no answer within ${limitMs} ms`}`);
  }
  const ended = Promise.withResolvers<void>();
  let open = true;
  const kill = () => {
    ended.resolve();
    if (!open) return;
    open = false;
    for (const file of [reader, writer]) {
      try {
        file.close();
      } catch { /* closed with its stream */ }
    }
  };
  const readable = reader.readable.pipeThrough(
    new TransformStream({ flush: () => ended.resolve() }),
  );
  return {
    io: {
      writable: fifoWritable(writer),
      readable,
      kill,
      ended: ended.promise.finally(() => Deno.remove(dir, { recursive: true }).catch(() => {})),
    },
    why,
  };
}

/** Opens a fifo, waiting at most `limitMs` for its other end; then opens that end here to free the wait, and gives up. */
async function openFifo(
  path: string,
  mode: Deno.OpenOptions,
  other: Deno.OpenOptions,
  limitMs: number,
): Promise<Deno.FsFile | null> {
  const opening = Deno.open(path, mode);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => timer = setTimeout(() => resolve(null), limitMs));
  const file = await Promise.race([opening, late]).catch(() => null);
  clearTimeout(timer);
  if (file) return file;
  const freeing = await Deno.open(path, other).catch(() => null);
  (await opening.catch(() => null))?.close();
  freeing?.close();
  return null;
}

/**
 * A fifo's writable stream, writing each chunk through `write` (Deno 2.9's `FsFile.writable`
 * resolved writes to a fifo that never reached it).
 */
function fifoWritable(file: Deno.FsFile): WritableStream<Uint8Array> {
  return new WritableStream({
    async write(chunk) {
      for (let at = 0; at < chunk.length;) at += await file.write(chunk.subarray(at));
    },
    close() {
      try {
        file.close();
      } catch { /* closed already */ }
    },
  });
}

function shWord(text: string): string {
  return `'${text.replaceAll("'", `'"'"'`)}'`;
}

function shWords(words: readonly string[]): string {
  return words.map(shWord).join(" ");
}
