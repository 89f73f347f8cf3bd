"""A calendar feed on 127.0.0.1 for the Tasks tests: serves --file at any path, with an ETag
(If-None-Match → 304), optional Basic auth, and prints `HIT <status> <bytes>` for every request
so a test can count what was downloaded. Prints `PORT <n>` when listening."""
import argparse
import base64
import hashlib
import http.server
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--file", required=True)
    parser.add_argument("--user")
    parser.add_argument("--password")
    args = parser.parse_args()

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def reply(self, status, body=b"", headers=()):
            self.send_response(status)
            for k, v in headers:
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            print("HIT %d %d %s" % (status, len(body), self.headers.get("User-Agent", "")), flush=True)

        def do_GET(self):
            if args.user:
                want = "Basic " + base64.b64encode(f"{args.user}:{args.password}".encode()).decode()
                if self.headers.get("Authorization") != want:
                    return self.reply(401, b"login", [("WWW-Authenticate", 'Basic realm="feed"')])
            with open(args.file, "rb") as f:
                body = f.read()
            etag = '"%s"' % hashlib.sha1(body).hexdigest()
            if self.headers.get("If-None-Match") == etag:
                return self.reply(304, b"", [("ETag", etag)])
            self.reply(200, body, [("ETag", etag), ("Content-Type", "text/calendar; charset=utf-8")])

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print("PORT %d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
