#!/usr/bin/env python3
"""A loopback TCP proxy for tests: forwards to --target, prints "PORT <n>" once listening and
"REQUEST <METHOD> <PATH>" for every HTTP request line it sees from clients, and on SIGUSR1
cuts every open connection (and refuses websocket upgrades from then on). With --tls-cert and
--tls-key it terminates TLS; with --basic user:password it answers 401 to any request without
that HTTP basic authorization (like a reverse proxy in front of OctoPrint)."""
import argparse
import asyncio
import base64
import re
import signal
import ssl
import sys

parser = argparse.ArgumentParser()
parser.add_argument("--target", required=True, help="host:port")
parser.add_argument("--tls-cert")
parser.add_argument("--tls-key")
parser.add_argument("--basic", help="user:password")
args = parser.parse_args()
expected_auth = ("Basic " + base64.b64encode(args.basic.encode()).decode()).encode() if args.basic else None
AUTH = re.compile(rb"^Authorization: *(.+?)\r?$", re.M | re.I)
target_host, target_port = args.target.rsplit(":", 1)
REQUEST = re.compile(rb"^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) (\S+) HTTP/1\.[01]\r?$", re.M)
open_writers = set()
state = {"refuse_websocket": False}


async def pipe(reader, writer, watch, back=None):
    try:
        while True:
            data = await reader.read(65536)
            if not data:
                break
            if watch and expected_auth and REQUEST.search(data):
                m = AUTH.search(data)
                if not m or m.group(1).strip() != expected_auth:
                    print("UNAUTHORIZED", flush=True)
                    reply = b"HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Basic realm=\"octoprint\"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                    back[0].write(reply)
                    await back[0].drain()
                    back[0].close()
                    break
            if watch:
                for m in REQUEST.finditer(data):
                    path = m.group(2).decode(errors="replace")
                    print("REQUEST %s %s" % (m.group(1).decode(), path), flush=True)
                    if state["refuse_websocket"] and path.startswith("/sockjs"):
                        raise ConnectionResetError("websocket refused")
            writer.write(data)
            await writer.drain()
    except (ConnectionResetError, BrokenPipeError, asyncio.CancelledError):
        pass
    finally:
        try:
            writer.close()
        except Exception:
            pass


async def handle(client_reader, client_writer):
    try:
        upstream_reader, upstream_writer = await asyncio.open_connection(target_host, int(target_port))
    except OSError:
        client_writer.close()
        return
    open_writers.update({client_writer, upstream_writer})
    await asyncio.gather(pipe(client_reader, upstream_writer, True, [client_writer]), pipe(upstream_reader, client_writer, False))
    open_writers.difference_update({client_writer, upstream_writer})


def cut():
    state["refuse_websocket"] = True
    for w in list(open_writers):
        try:
            w.transport.abort()
        except Exception:
            pass
    print("CUT", flush=True)


async def main():
    context = None
    if args.tls_cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.tls_cert, args.tls_key)
    server = await asyncio.start_server(handle, "127.0.0.1", 0, ssl=context)
    asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, cut)
    print("PORT %d" % server.sockets[0].getsockname()[1], flush=True)
    async with server:
        await server.serve_forever()


asyncio.run(main())
