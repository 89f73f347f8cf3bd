"""Starts a real CalDAV server on 127.0.0.1 for the Tasks tests and prints `PORT <n>` once it
answers, with two calendars made through the `caldav` client library: `tasks` (VTODO) and
`events` (VEVENT).

    caldav_server.py radicale DIR USER PASSWORD   (htpasswd authentication)
    caldav_server.py xandikos DIR                 (no authentication of its own: open on loopback)
"""
import ctypes
import os
import signal
import socket
import subprocess
import sys
import time

import caldav


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def die_with_parent():
    # The tests stop this script with SIGKILL, which no `finally` survives: the kernel then kills
    # the server too (PR_SET_PDEATHSIG), so no CalDAV server outlives its test.
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)


def wait(port, process):
    for _ in range(400):
        if process.poll() is not None:
            sys.exit("server exited with %s" % process.returncode)
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    sys.exit("server did not start")


def main():
    kind, directory = sys.argv[1], sys.argv[2]
    port = free_port()
    python = sys.executable
    if kind == "radicale":
        user, password = sys.argv[3], sys.argv[4]
        htpasswd = os.path.join(directory, "htpasswd")
        with open(htpasswd, "w") as f:
            f.write("%s:%s\n" % (user, password))
        args = [python, "-m", "radicale", "--server-hosts", "127.0.0.1:%d" % port,
                "--storage-filesystem-folder", os.path.join(directory, "collections"),
                "--auth-type", "htpasswd", "--auth-htpasswd-filename", htpasswd, "--auth-htpasswd-encryption", "plain",
                "--logging-level", "warning", "--rights-type", "owner_only"]
        base = "http://127.0.0.1:%d/" % port
    else:
        user = password = None
        args = [os.path.join(os.path.dirname(python), "xandikos"), "serve", "-d", os.path.join(directory, "data"),
                "-l", "127.0.0.1", "-p", str(port), "--autocreate", "--no-detect-systemd",
                "--current-user-principal", "/user/"]
        base = "http://127.0.0.1:%d/" % port
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=sys.stderr, preexec_fn=die_with_parent)
    try:
        wait(port, process)
        client = caldav.DAVClient(url=base, username=user, password=password)
        principal = client.principal()
        for cal_id, component in (("tasks", "VTODO"), ("events", "VEVENT")):
            principal.make_calendar(name=cal_id, cal_id=cal_id, supported_calendar_component_set=[component])
        print("PORT %d" % port, flush=True)
        process.wait()
    finally:
        process.kill()


if __name__ == "__main__":
    main()
