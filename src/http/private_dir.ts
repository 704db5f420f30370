/**
 * Makes `path` a directory only its owner can enter (0700), for the bridge's default tmux socket.
 * An existing directory is accepted only if it is a real directory (not a symlink another user
 * could have planted in /tmp) whose mode we can set to 0700.
 */
export async function ensurePrivateDir(path: string): Promise<void> {
  await Deno.mkdir(path, { recursive: true, mode: 0o700 });
  const info = await Deno.lstat(path);
  if (info.isSymlink || !info.isDirectory) {
    throw new Error(`Cannot use "${path}" for the bridge's tmux socket: it is not a directory (a symlink?)`);
  }
  if (info.mode !== null && (info.mode & 0o077) !== 0) {
    try {
      await Deno.chmod(path, 0o700);
    } catch {
      throw new Error(
        `Cannot use "${path}" for the bridge's tmux socket: others can enter it and it is not ours to fix; ` +
          "set TMUX_BRIDGE_SOCKET_PATH to a path in a private directory",
      );
    }
  }
}
