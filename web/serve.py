"""Serves a folder (default: target/web) over HTTP with the headers the page needs.

The engine reads its input from a SharedArrayBuffer, which browsers give only to pages served
with Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp.

    python3 web/serve.py [FOLDER] [PORT]      # then open http://localhost:8000/
"""

import functools
import http.server
import sys


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm"}

    def end_headers(self):
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, *args):
        pass


def serve(folder, port):
    """Serves `folder` on `port` (0: any free port) until stopped; returns the server."""
    handler = functools.partial(Handler, directory=folder)
    return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)


if __name__ == "__main__":
    folder = sys.argv[1] if len(sys.argv) > 1 else "target/web"
    port = int(sys.argv[2]) if len(sys.argv) > 2 else 8000
    server = serve(folder, port)
    print(f"serving {folder} at http://localhost:{server.server_address[1]}/")
    server.serve_forever()
