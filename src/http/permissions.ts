/**
 * Deno permission checks for a listener, made before it starts, so a missing grant is one clear
 * message naming the exact flag instead of a NotCapable stack trace.
 */
export function listenProblem(
  hostname: string,
  port: number,
  tls: { certFile: string; keyFile: string } | null,
): string | null {
  const host = hostname.includes(":") ? `[${hostname}]` : hostname;
  const net = Deno.permissions.querySync({ name: "net", host: port === 0 ? host : `${host}:${port}` });
  if (net.state !== "granted") {
    return `Cannot listen on ${host}:${port}: the Deno permissions allow loopback addresses only ` +
      `(127.0.0.1, [::1], localhost); run deno run with --allow-net=${host}:${port} added to the task's flags ` +
      '(see docs/http.md, "Listening on another address")';
  }
  for (const [what, path] of tls ? [["certificate", tls.certFile], ["key", tls.keyFile]] : []) {
    if (Deno.permissions.querySync({ name: "read", path }).state !== "granted") {
      return `Cannot read the TLS ${what} "${path}": the Deno permissions allow reads only in the state directory; ` +
        `put it under the state directory's tls/ folder or add --allow-read=${path} to the deno run flags`;
    }
  }
  return null;
}
