"""Serves a folder (default: target/web) over HTTP, with the headers that isolate the page.

The engine reads its input from a SharedArrayBuffer where it can (a running search then hears
`stop` itself), which browsers give only to pages served with Cross-Origin-Opener-Policy:
same-origin and Cross-Origin-Embedder-Policy: require-corp. With --no-isolation the page is
served without them, as most static hosts serve it: the engine then plays in its other mode
(docs/web.md).

It serves this machine only (127.0.0.1) unless told another address: `--host 0.0.0.0` serves
the LAN, for a phone. A phone's browser gives service workers (install, offline) and
SharedArrayBuffer only to a secure origin, so over a LAN the page needs HTTPS: `--cert` and
`--key` name a certificate the phone trusts and its key (docs/web.md, "On a phone: serving
over a LAN").

    python3 web/serve.py [FOLDER] [PORT] [--no-isolation] [--host ADDRESS] [--cert PEM --key PEM]
    # then open http://localhost:8000/
"""

import argparse
import functools
import http.server
import ssl


# Headless Chromium as the browser tests start it: no sandbox or GPU, nothing fetched or
# synced in the background. Each test adds its window size.
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm",
                     ".webmanifest": "application/manifest+json", ".woff2": "font/woff2"}
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


class TLSServer(http.server.ThreadingHTTPServer):
    """HTTPS: each connection's handshake is made in its own thread, so that a client that
    never finishes one holds up no other."""

    def __init__(self, address, handler, context):
        super().__init__(address, handler)
        self.context = context

    def finish_request(self, request, client_address):
        try:
            request = self.context.wrap_socket(request, server_side=True)
        except (ssl.SSLError, OSError):
            return
        try:
            super().finish_request(request, client_address)
        finally:
            request.close()


def serve(folder, port, isolated=True, host="127.0.0.1", cert=None, key=None):
    """Serves `folder` on `port` (0: any free port) of `host` until stopped; returns the
    server. `isolated`: send the cross-origin isolation headers. `cert` (and `key`, if the
    certificate's file does not hold it): PEM files to serve HTTPS."""
    handler = functools.partial(Handler if isolated else Plain, directory=folder)
    if cert is None:
        return http.server.ThreadingHTTPServer((host, port), handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    return TLSServer((host, port), handler, context)


if __name__ == "__main__":
    p = argparse.ArgumentParser(description="Serves the page over HTTP.")
    p.add_argument("folder", nargs="?", default="target/web")
    p.add_argument("port", nargs="?", type=int, default=8000)
    p.add_argument("--no-isolation", action="store_true", help="without the COOP/COEP headers")
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (0.0.0.0: every interface)")
    p.add_argument("--cert", help="serve HTTPS with this certificate (PEM)")
    p.add_argument("--key", help="the certificate's private key (PEM), if not in --cert's file")
    args = p.parse_args()
    if args.key and not args.cert:
        p.error("--key needs --cert")
    server = serve(args.folder, args.port, not args.no_isolation, args.host, args.cert, args.key)
    mode = "without isolation" if args.no_isolation else "cross-origin isolated"
    scheme = "https" if args.cert else "http"
    name = "localhost" if args.host in ("127.0.0.1", "localhost") else args.host
    if args.host == "0.0.0.0":
        name = "<this machine's address>"
    print(f"serving {args.folder} at {scheme}://{name}:{server.server_address[1]}/ ({mode})")
    if scheme == "http" and name != "localhost":
        print("plain http to another machine: no install, no offline copy, not isolated (docs/web.md)")
    server.serve_forever()
