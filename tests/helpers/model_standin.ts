/**
 * A scripted stand-in for a model API, on loopback: every request is recorded (path and JSON
 * body) and answered by the test's script, which plays the model. The client under test is
 * pointed at `url` (ANTHROPIC_BASE_URL, a Codex model provider, GOOGLE_GEMINI_BASE_URL); what the
 * client gives its model is then in `requests`. The wire formats are in model_apis.ts.
 */
export interface ModelRequest {
  path: string;
  // deno-lint-ignore no-explicit-any
  body: any;
}

/** The model's move for one request (null: not a path this API serves, answered 404). */
export type Script = (request: ModelRequest, index: number) => Response | null | Promise<Response | null>;

export class ModelStandIn {
  readonly requests: ModelRequest[] = [];

  private constructor(private readonly server: Deno.HttpServer<Deno.NetAddr>, readonly url: string) {}

  static start(script: Script): ModelStandIn {
    let standIn: ModelStandIn | null = null;
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
      const url = new URL(req.url);
      const raw = await req.text();
      let body: unknown = raw;
      try {
        body = raw === "" ? null : JSON.parse(raw);
      } catch { /* kept as text */ }
      const request = { path: url.pathname + url.search, body };
      standIn!.requests.push(request);
      try {
        return await script(request, standIn!.requests.length - 1) ?? new Response("{}", { status: 404 });
      } catch (error) {
        // A script that cannot answer fails the client's request visibly, not the test process.
        return new Response(JSON.stringify({ error: { message: String(error) } }), { status: 500 });
      }
    });
    standIn = new ModelStandIn(server, `http://127.0.0.1:${server.addr.port}`);
    return standIn;
  }

  /** The requests to paths matching `pattern`, in order. */
  to(pattern: RegExp): ModelRequest[] {
    return this.requests.filter((r) => pattern.test(r.path));
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.server.shutdown();
  }
}
