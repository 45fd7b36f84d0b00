"""Serves a folder (default: target/web) over HTTP, with the headers that isolate the page.

The engine reads its input from a SharedArrayBuffer where it can (a running search then hears
`stop` itself), which browsers give only to pages served with Cross-Origin-Opener-Policy:
same-origin and Cross-Origin-Embedder-Policy: require-corp. With --no-isolation the page is
served without them, as most static hosts serve it: the engine then plays in its other mode
(docs/web.md).

    python3 web/serve.py [FOLDER] [PORT] [--no-isolation]   # then open http://localhost:8000/
"""

import argparse
import functools
import http.server


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm"}
    isolated = True

    def end_headers(self):
        if self.isolated:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, *args):
        pass


class Plain(Handler):
    isolated = False


def serve(folder, port, isolated=True):
    """Serves `folder` on `port` (0: any free port) until stopped; returns the server.
    `isolated`: send the cross-origin isolation headers."""
    handler = functools.partial(Handler if isolated else Plain, directory=folder)
    return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)


if __name__ == "__main__":
    p = argparse.ArgumentParser(description="Serves the page over HTTP.")
    p.add_argument("folder", nargs="?", default="target/web")
    p.add_argument("port", nargs="?", type=int, default=8000)
    p.add_argument("--no-isolation", action="store_true", help="without the COOP/COEP headers")
    args = p.parse_args()
    server = serve(args.folder, args.port, isolated=not args.no_isolation)
    mode = "without isolation" if args.no_isolation else "cross-origin isolated"
    print(f"serving {args.folder} at http://localhost:{server.server_address[1]}/ ({mode})")
    server.serve_forever()
