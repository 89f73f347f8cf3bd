"""A real SMTP server (aiosmtpd) on 127.0.0.1 for the mail tests.

Prints "PORT <n>" once listening, then "MESSAGE <path>" for each message it accepts; each message
is saved as JSON with what the session negotiated (TLS, AUTH) so tests can assert on it.
"""
import argparse
import asyncio
import json
import os
import signal
import ssl
import sys

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword


def main():
    # The test runner may have left SIGTERM ignored; a peer must die when told to.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    parser = argparse.ArgumentParser()
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--user", default="tester")
    parser.add_argument("--password", required=True)
    parser.add_argument("--mode", choices=["starttls", "tls"], default="starttls")
    args = parser.parse_args()

    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(args.cert, args.key)
    counter = {"n": 0}

    def authenticator(server, session, envelope, mechanism, auth_data):
        ok = isinstance(auth_data, LoginPassword) and auth_data.login.decode() == args.user \
            and auth_data.password.decode() == args.password
        return AuthResult(success=ok, handled=False, auth_data=auth_data if ok else None)

    class Handler:
        async def handle_DATA(self, server, session, envelope):
            counter["n"] += 1
            path = os.path.join(args.out, f"message-{counter['n']}.json")
            record = {
                "mail_from": envelope.mail_from,
                "rcpt_tos": envelope.rcpt_tos,
                "data": envelope.original_content.decode("utf-8", "replace"),
                "tls": session.ssl is not None or server.transport.get_extra_info("ssl_object") is not None,
                "authenticated": bool(session.authenticated),
                "auth_login": session.auth_data.login.decode() if isinstance(session.auth_data, LoginPassword) else None,
            }
            with open(path, "w") as f:
                json.dump(record, f)
            print(f"MESSAGE {path}", flush=True)
            return "250 OK"

    def factory():
        if args.mode == "starttls":
            return SMTP(Handler(), hostname="127.0.0.1", tls_context=context, require_starttls=True,
                        authenticator=authenticator, auth_required=True, auth_require_tls=True)
        return SMTP(Handler(), hostname="127.0.0.1", authenticator=authenticator, auth_required=True,
                    auth_require_tls=False)

    async def serve():
        server = await asyncio.get_running_loop().create_server(
            factory, host="127.0.0.1", port=0, ssl=context if args.mode == "tls" else None)
        port = server.sockets[0].getsockname()[1]
        print(f"PORT {port}", flush=True)
        async with server:
            await server.serve_forever()

    asyncio.run(serve())


if __name__ == "__main__":
    sys.exit(main())
