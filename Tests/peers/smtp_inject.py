"""An SMTP server that injects plaintext after its 220 to STARTTLS (CVE-2011-0411's class): the
220 and a forged EHLO reply go out in one write, before any TLS. Serves one client on 127.0.0.1
and prints `PORT <n>`, then `INJECTED` once it has sent the forged lines."""
import socket
import sys


def main():
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    print("PORT %d" % server.getsockname()[1], flush=True)
    conn, _ = server.accept()
    reader = conn.makefile("rb")
    conn.sendall(b"220 fake ESMTP\r\n")
    while True:
        line = reader.readline()
        if not line:
            return
        verb = line.strip().upper()
        if verb.startswith(b"EHLO"):
            conn.sendall(b"250-fake\r\n250-AUTH PLAIN\r\n250 STARTTLS\r\n")
        elif verb == b"STARTTLS":
            conn.sendall(b"220 go ahead\r\n250-injected\r\n250 AUTH PLAIN\r\n")
            print("INJECTED", flush=True)
            conn.recv(4096)
            conn.close()
            return
        else:
            conn.sendall(b"500 what\r\n")


if __name__ == "__main__":
    sys.exit(main())
