"""A loopback HTTP(S) upstream for the plugin kit's tests.

Routes: /json (a JSON answer), /echo (the request's method, path, query and headers as JSON),
/hang (never answers), /hold (answers nothing until the client hangs up, then counts the
request as aborted), /holds?holding=<n>&aborted=<n> (waits up to 30 s for those counts, then
answers them), /status/<n> (answers n), /flaky/<n> (503 for the first n requests, then
JSON), /bearer (401 unless `Authorization: Bearer good`), /big (2 MB), /count (how many
requests it has seen), /files/<name> (a small G-code file), /redirect/<name> (302 to /files/<name>), /stream/<name> (2 MB of G-code
without a Content-Length), /slow/<name> (a G-code line every half second for a minute), /data (a JSON answer, or the status /set/<n> forces), /items (a dict
changed by /items/put?key=&value= and /items/del?key=; /set/<n> forces its status too). Prints `PORT <n>` when listening on 127.0.0.1.
"""
import argparse
import json
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit, parse_qsl

lock = threading.Lock()
counts = {"all": 0, "flaky": 0, "holding": 0, "aborted": 0}
changed = threading.Condition(lock)
forced = {"status": 200}
items = {}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body, content_type="application/json"):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def handle_any(self):
        with lock:
            counts["all"] += 1
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode() if length else ""
        parts = urlsplit(self.path)
        path = parts.path
        if path == "/json":
            return self.answer(200, {"ok": True, "items": [1, 2, 3]})
        if path == "/echo":
            return self.answer(200, {"method": self.command, "path": path, "query": dict(parse_qsl(parts.query, keep_blank_values=True)),
                                     "raw_query": parts.query, "headers": {k.lower(): v for k, v in self.headers.items()}, "body": body})
        if path == "/hang":
            time.sleep(3600)
            return
        if path == "/hold":
            with changed:
                counts["holding"] += 1
                changed.notify_all()
            # A request sends nothing after its headers: the read ends when the client closes.
            self.rfile.read(1)
            with changed:
                counts["aborted"] += 1
                changed.notify_all()
            self.close_connection = True
            return
        if path == "/holds":
            want = {k: int(v) for k, v in parse_qsl(parts.query)}
            with changed:
                changed.wait_for(lambda: all(counts[k] >= n for k, n in want.items()), timeout=30)
                seen = {"holding": counts["holding"], "aborted": counts["aborted"]}
            return self.answer(200, seen)
        if path.startswith("/status/"):
            code = int(path.split("/")[2])
            return self.answer(code, {"status": code})
        if path.startswith("/flaky/"):
            failures = int(path.split("/")[2])
            with lock:
                counts["flaky"] += 1
                seen = counts["flaky"]
            if seen <= failures:
                return self.answer(503, {"error": "try later"})
            return self.answer(200, {"ok": True, "attempt": seen})
        if path == "/bearer":
            if self.headers.get("Authorization") == "Bearer good":
                return self.answer(200, {"ok": True})
            return self.answer(401, {"error": "bad token"})
        if path == "/big":
            return self.answer(200, b"x" * (2 << 20), "text/plain")
        if path.startswith("/redirect/"):
            self.send_response(302)
            self.send_header("Location", "/files/" + path.split("/", 2)[2])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if path.startswith("/files/"):
            return self.answer(200, b"G28\nG1 X10 Y10 F3000\nG1 X20 Y20\n", "text/x.gcode")
        if path.startswith("/stream/") or path.startswith("/slow/"):
            # Close-delimited, no Content-Length: the client learns the size only by counting.
            self.send_response(200)
            self.send_header("Content-Type", "text/x.gcode")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            try:
                if path.startswith("/stream/"):
                    line = b"G1 X1 Y1 F3000 ; padding padding padding padding padding\n"
                    for _ in range((2 << 20) // len(line) + 1):
                        self.wfile.write(line)
                else:
                    for _ in range(120):
                        self.wfile.write(b"G1 X1\n")
                        self.wfile.flush()
                        time.sleep(0.5)
            except (BrokenPipeError, ConnectionResetError):
                pass
            return
        if path == "/data":
            if forced["status"] != 200:
                return self.answer(forced["status"], {"error": "forced"})
            return self.answer(200, {"value": counts["all"]})
        if path.startswith("/set/"):
            forced["status"] = int(path.split("/")[2])
            return self.answer(200, {"status": forced["status"]})
        if path == "/items":
            if forced["status"] != 200:
                return self.answer(forced["status"], {"error": "forced"})
            with lock:
                return self.answer(200, dict(items))
        if path == "/items/put":
            query = dict(parse_qsl(parts.query))
            with lock:
                items[query["key"]] = query["value"]
            return self.answer(200, {"ok": True})
        if path == "/items/del":
            with lock:
                items.pop(dict(parse_qsl(parts.query))["key"], None)
            return self.answer(200, {"ok": True})
        if path in ("/api/3/atom", "/api/3/atom-elsewhere"):
            # Five entries, two a page; xml:base without its trailing slash, as KOSapi sends it.
            offset = int(dict(parse_qsl(parts.query)).get("offset", "0"))
            host = self.headers.get("Host")
            entries = "".join(
                '<atom:entry><atom:id>urn:cvut:kos:course:%d</atom:id><atom:content atom:type="xml" xsi:type="course"><code>C%d</code></atom:content></atom:entry>' % (i, i)
                for i in range(offset, min(offset + 2, 5)))
            nxt = ""
            if offset + 2 < 5:
                target = "atom?offset=%d&amp;limit=2" % (offset + 2) if path.endswith("/atom") else "https://elsewhere.example/api/3/atom?offset=2"
                nxt = '<atom:link rel="next" href="%s"/>' % target
            body = ('<?xml version="1.0" encoding="UTF-8"?><atom:feed xmlns="http://kosapi.feld.cvut.cz/schema/3" xmlns:atom="http://www.w3.org/2005/Atom" '
                    'xmlns:osearch="http://a9.com/-/spec/opensearch/1.1/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
                    'xml:base="http://%s/api/3" xml:lang="cs"><atom:id>x</atom:id>%s%s<osearch:totalResults>5</osearch:totalResults></atom:feed>' % (host, nxt, entries))
            return self.answer(200, body.encode(), "application/atom+xml")
        if path == "/count":
            return self.answer(200, {"all": counts["all"], "flaky": counts["flaky"]})
        return self.answer(404, {"error": "not found"})

    do_GET = do_POST = do_PUT = do_DELETE = handle_any


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cert")
    parser.add_argument("--key")
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    if args.cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.cert, args.key)
        # The handshake happens in each connection's own thread (on its first read), not in
        # accept(): one client that is slow to shake hands or gives up half-way must not hold up
        # the next connection (a test timed out so under load).
        server.socket = context.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
    print("PORT %d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
