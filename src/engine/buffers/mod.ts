/** Buffers: tmux paste buffers namespaced to this server (load, show, paste, delete; never anyone else's). */
export { BufferRegistry } from "./registry.ts";
