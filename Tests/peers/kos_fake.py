"""A fake CTU OAuth server (Zuul OAAS, reference §2) for the KOS plugin's tests.

/oauth/token (client_credentials, authorization_code, refresh_token; client auth by HTTP Basic),
/oauth/authorize (302 back to the redirect_uri with code and state), /oauth/userinfo (Bearer).
Admin (POST, JSON): /_admin/authorize {"mode": "normal" | "deny" | "wrong_state"},
/_admin/expire (every access token becomes invalid), /_admin/revoke (every refresh token too);
GET /_admin/requests: [{"method", "path", "query", "auth"}].
Prints `PORT <n>` when listening on 127.0.0.1.
"""
import base64
import json
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit, parse_qs, urlencode

CLIENT_ID, CLIENT_SECRET = "assistant-app", "app-secret-123"
lock = threading.Lock()
codes = {}        # code -> redirect_uri
access = {}       # token -> username or None (client credentials)
refresh = {}      # token -> username
mode = {"authorize": "normal"}
seen = []


def slot(day, first, duration, parity, room, extra=""):
    return ('<timetableSlot><day>%d</day><duration>%d</duration><firstHour>%d</firstHour><parity>%s</parity>'
            '<room xlink:href="rooms/%s/">%s</room>%s</timetableSlot>') % (day, duration, first, parity, room, room, extra)


def internal(code, name, semester, completed, assessment):
    return ("internalCourseEnrollment", semester,
            '<assessment>%s</assessment><completed>%s</completed><course xlink:href="courses/%s/">%s</course><semester xlink:href="semesters/%s/">%s</semester>'
            % (str(assessment).lower(), str(completed).lower(), code, name, semester, semester))


ENROLLMENTS = [
    internal("BI-OPT", "Optimalizace", "B251", False, True),
    internal("BI-PA2", "Programování a algoritmizace 2", "B251", False, False),
    internal("BI-ZMA", "Základy matematické analýzy", "B251", True, True),
    ("externalCourseEnrollment", "B251",
     '<assessment>true</assessment><completed>true</completed><completion>CREDIT</completion><credits>2</credits>'
     '<name xml:lang="cs">Tělesná výchova</name><semester xlink:href="semesters/B251/">B251</semester>'),
    internal("BI-PA1", "Programování a algoritmizace 1", "B242", True, True),
    internal("BI-LIN", "Lineární algebra", "B242", False, True),
]
COURSES = {
    "BI-OPT": '<code>BI-OPT</code><completion>CREDIT_EXAM</completion><credits>5</credits><name xml:lang="cs">Optimalizace</name><name xml:lang="en">Optimization</name>',
    "BI-PA2": '<code>BI-PA2</code><completion>CREDIT_EXAM</completion><credits>7</credits><name xml:lang="cs">Programování a algoritmizace 2</name>'
              '<name xml:lang="en"></name>',
    "BI-ZMA": '<code>BI-ZMA</code><completion>CREDIT_EXAM</completion><credits>6</credits><name xml:lang="cs">Základy matematické analýzy</name>'
              '<name xml:lang="en">Basics of Mathematical Analysis</name>',
    "BI-PA1": '<code>BI-PA1</code><completion>CREDIT_EXAM</completion><credits>7</credits><name xml:lang="cs">Programování a algoritmizace 1</name>',
    "BI-LIN": '<code>BI-LIN</code><completion>CREDIT_EXAM</completion><credits>5</credits><name xml:lang="cs">Lineární algebra</name>',
}


EXAMS = {
    901: {"course": "BI-OPT", "start": "2027-01-10T09:00:00", "end": "2027-01-10T11:00:00", "capacity": 20, "occupied": 20, "registered": False,
          "term": "FINAL_EXAM", "room": "T9:105"},
    902: {"course": "BI-OPT", "start": "2027-01-17T09:00:00", "end": "2027-01-17T11:00:00", "capacity": 20, "occupied": 5, "registered": True,
          "term": "FINAL_EXAM", "room": "T9:107"},
    903: {"course": "BI-ZMA", "start": "2027-01-12T13:00:00", "end": "2027-01-12T15:00:00", "capacity": 30, "occupied": 12, "registered": False,
          "term": "ASSESSMENT", "room": "T9:350"},
}


def exam_xml(e):
    return ('<cancelDeadline>%s</cancelDeadline><capacity>%d</capacity><course xlink:href="courses/%s/">%s</course><endDate>%s</endDate>'
            '<examiners><teacher xlink:href="teachers/dvorakto/">Ing. Tomáš Dvořák Ph.D.</teacher></examiners><occupied>%d</occupied>'
            '<room xlink:href="rooms/%s/">%s</room><signinDeadline>%s</signinDeadline><startDate>%s</startDate><termType>%s</termType>') % (
                e["start"][:10], e["capacity"], e["course"], e["course"], e["end"], e["occupied"], e["room"], e["room"], e["start"][:10], e["start"], e["term"])


# Five parallels of novakjan (three pages of two): shapes from the reference's §5.3 recording.
PARALLELS = [
    ("349736000", '<capacity>22</capacity><code>105</code><course xlink:href="courses/BI-OPT/">Optimalizace</course><occupied>21</occupied>'
                  '<parallelType>TUTORIAL</parallelType><teacher xlink:href="teachers/novakpet/">Mgr. Petr Novák Ph.D.</teacher>'
                  + slot(5, 5, 2, "ODD", "TH:A-1442")),
    ("349742000", '<capacity>140</capacity><code>1</code><course xlink:href="courses/BI-OPT/">Optimalizace</course><occupied>110</occupied>'
                  '<parallelType>LECTURE</parallelType><teacher xlink:href="teachers/dvorakto/">Ing. Tomáš Dvořák Ph.D.</teacher>'
                  '<teacher xlink:href="teachers/svobodav/">Ing. Vojtěch Svoboda Ph.D.</teacher>'
                  + slot(5, 3, 2, "BOTH", "KN:E-107") + slot(2, 7, 2, "BOTH", "T2:C3-340")),
    ("349800000", '<code>102</code><course xlink:href="courses/BI-PA2/">Programování a algoritmizace 2</course><parallelType>LABORATORY</parallelType>'
                  '<teachers><teacher xlink:href="teachers/cernyj/">Ing. Jan Černý</teacher></teachers>'
                  + slot(1, 1, 2, "EVEN", "T9:350", "<weeks>1-7,9</weeks>")),
    ("349900000", '<code>3</code><course xlink:href="courses/BI-ZMA/">Základy matematické analýzy</course><parallelType>LECTURE</parallelType>'
                  + slot(3, 9, 3, "UNDEFINED", "T9:105", "<startTime>14:30</startTime><endTime>16:45</endTime>")),
    ("350000000", '<code>104</code><course xlink:href="courses/BI-ZMA/">Základy matematické analýzy</course><parallelType>TUTORIAL</parallelType>'
                  + slot(1, 1, 2, "ODD", "T9:348")),
]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def answer(self, status, body, headers=None):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def record(self, parts):
        auth = self.headers.get("Authorization") or ""
        with lock:
            seen.append({"method": self.command, "path": parts.path, "query": parts.query, "auth": auth.split(" ")[0].lower() if auth else "none"})

    def client_ok(self, form):
        auth = self.headers.get("Authorization") or ""
        if auth.startswith("Basic "):
            user, _, password = base64.b64decode(auth[6:]).decode().partition(":")
        else:
            user, password = form.get("client_id", [""])[0], form.get("client_secret", [""])[0]
        return user == CLIENT_ID and password == CLIENT_SECRET

    def tokens(self, username):
        token = str(uuid.uuid4())
        body = {"access_token": token, "token_type": "bearer", "expires_in": 300, "scope": "cvut:kosapi:read"}
        with lock:
            access[token] = username
            if username:
                body["refresh_token"] = str(uuid.uuid4())
                refresh[body["refresh_token"]] = username
        return body

    def do_POST(self):
        parts = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length).decode()
        if parts.path.startswith("/_admin/"):
            body = json.loads(raw or "{}")
            with lock:
                if parts.path == "/_admin/authorize":
                    mode["authorize"] = body["mode"]
                elif parts.path == "/_admin/expire":
                    access.clear()
                elif parts.path == "/_admin/revoke":
                    access.clear()
                    refresh.clear()
            return self.answer(200, {})
        self.record(parts)
        if parts.path != "/oauth/token":
            return self.answer(404, {"error": "not_found"})
        form = parse_qs(raw)
        if not self.client_ok(form):
            return self.answer(401, {"error": "unauthorized"})
        grant = form.get("grant_type", [""])[0]
        if grant == "client_credentials":
            return self.answer(200, self.tokens(None))
        if grant == "authorization_code":
            with lock:
                redirect = codes.pop(form.get("code", [""])[0], None)
            if redirect is None or redirect != form.get("redirect_uri", [""])[0]:
                return self.answer(400, {"error": "invalid_grant"})
            return self.answer(200, self.tokens("novakjan"))
        if grant == "refresh_token":
            with lock:
                user = refresh.pop(form.get("refresh_token", [""])[0], None)
            if user is None:
                return self.answer(400, {"error": "invalid_grant"})
            return self.answer(200, self.tokens(user))
        return self.answer(400, {"error": "unsupported_grant_type"})

    def do_GET(self):
        parts = urlsplit(self.path)
        if parts.path == "/_admin/requests":
            with lock:
                return self.answer(200, seen)
        self.record(parts)
        query = parse_qs(parts.query)
        if parts.path == "/oauth/authorize":
            redirect = query.get("redirect_uri", [""])[0]
            state = query.get("state", [""])[0]
            if query.get("client_id", [""])[0] != CLIENT_ID or query.get("response_type", [""])[0] != "code":
                return self.answer(400, {"error": "invalid_request"})
            if mode["authorize"] == "deny":
                target = {"error": "access_denied", "state": state}
            else:
                code = uuid.uuid4().hex
                with lock:
                    codes[code] = redirect
                target = {"code": code, "state": "forged" if mode["authorize"] == "wrong_state" else state}
            location = redirect + ("&" if "?" in redirect else "?") + urlencode(target)
            self.send_response(302)
            self.send_header("Location", location)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if parts.path == "/oauth/userinfo":
            auth = self.headers.get("Authorization") or ""
            with lock:
                user = access.get(auth[7:]) if auth.startswith("Bearer ") else None
            if not user:
                return self.answer(401, {"error": "invalid_token"})
            return self.answer(200, {"username": user, "email": user + "@fit.cvut.cz"})
        if parts.path.startswith("/api/3/"):
            return self.kosapi(parts.path[len("/api/3/"):])
        return self.answer(404, {"error": "not_found"})

    def kosapi(self, resource):
        auth = self.headers.get("Authorization") or ""
        with lock:
            known = auth.startswith("Bearer ") and auth[7:] in access
            user = access.get(auth[7:]) if known else None
        if not known:
            return self.answer(401, {"error": "invalid_token"})
        if resource.startswith("semesters/"):
            which = resource.split("/")[1]
            code = {"current": "B251", "next": "B252", "prev": "B242"}.get(which, which)
            content = ('<code>%s</code><endDate>2026-02-15</endDate><name xml:lang="cs">Zimní 2025/2026</name>'
                       '<name xml:lang="en">Winter 2025/2026</name><startDate>2025-09-22</startDate>') % code
            return self.atom_entry("semester", code, "semesters/%s/" % code, content)
        if resource.startswith("students/") and resource.endswith("/enrolledCourses"):
            if user is None:
                return self.answer(403, {"error": "a user token is needed"})
            sem = parse_qs(urlsplit(self.path).query).get("sem", ["current"])[0]
            rows = [(i, kind, c) for i, (kind, semester, c) in enumerate(ENROLLMENTS)
                    if sem == "none" or semester == {"current": "B251", "prev": "B242"}.get(sem, sem)]
            return self.feed("students/%s/enrolledCourses" % user, [(str(i), kind, c) for i, kind, c in rows])
        if resource.startswith("courses/") and resource.endswith("/exams"):
            code = resource.split("/")[1]
            return self.feed(resource, [(str(i), "exam", exam_xml(e)) for i, e in EXAMS.items() if e["course"] == code])
        if resource.startswith("students/") and resource.endswith("/exams"):
            if user is None:
                return self.answer(403, {"error": "a user token is needed"})
            return self.feed(resource, [(str(i), "exam", exam_xml(e)) for i, e in EXAMS.items() if e["registered"]])
        if resource.startswith("courses/") and resource.count("/") <= 2 and resource.rstrip("/").count("/") == 1:
            code = resource.rstrip("/").split("/")[1]
            query = parse_qs(urlsplit(self.path).query)
            sem = query.get("sem", ["none"])[0]
            if code not in COURSES or (sem not in ("none", "current", "B251") and code != "BI-LIN"):
                return self.answer(404, {"error": "not offered"})
            content = COURSES[code] + '<range>2P+2C</range><season>WINTER</season><programmeType>BACHELOR</programmeType>'
            if query.get("detail", ["0"])[0] == "1":
                content += ('<description xml:lang="cs">Úvod do optimalizace.</description><lecturesContents xml:lang="cs">1. Lineární programování</lecturesContents>'
                            '<requirements xml:lang="cs">Zápočet a zkouška.</requirements>')
            return self.atom_entry("course", code, "courses/%s/" % code, content)
        if resource == "courses":
            query = parse_qs(urlsplit(self.path).query).get("query", [""])[0]
            # The RSQL subset the plugin sends: code=='X' (or "X"), joined with ','.
            wanted = set()
            for part in query.split(","):
                key, _, value = part.partition("==")
                if key.strip() != "code" or len(value) < 2 or value[0] not in "'\"" or value[-1] != value[0]:
                    return self.answer(400, {"error": "bad query %r" % query})
                wanted.add(value[1:-1])
            return self.feed("courses", [(code, "course", COURSES[code]) for code in sorted(wanted) if code in COURSES])
        if resource.startswith("students/") and resource.endswith("/parallels"):
            if user is None:
                return self.answer(403, {"error": "a user token is needed"})
            return self.feed(resource, [(ident, "parallel", content) for ident, content in PARALLELS])
        if resource.startswith("students/"):
            if user is None:
                return self.answer(403, {"error": "a user token is needed"})
            content = ('<firstName>Jan</firstName><lastName>Novák</lastName><username>%s</username><grade>2</grade>'
                       '<studyState>ACTIVE</studyState><studyGroup>101</studyGroup>'
                       '<programme xlink:href="programmes/B2646/">Informatika</programme>') % user
            return self.atom_entry("student", "1", "students/%s/" % user, content)
        return self.answer(404, {"error": "not_found"})

    def feed(self, path, rows):
        """Pages of two (a small default page size), `rel="next"` relative to the slash-less
        xml:base, the other parameters kept."""
        query = parse_qs(urlsplit(self.path).query)
        offset = int(query.get("offset", ["0"])[0])
        limit = int(query.get("limit", ["2"])[0])
        page = rows[offset:offset + limit]
        nxt = ""
        if offset + limit < len(rows):
            rest = [(k, v[0]) for k, v in query.items() if k not in ("offset", "limit")]
            nxt = '<atom:link rel="next" href="%s"/>' % (path + "?" + urlencode([("offset", offset + limit), ("limit", limit)] + rest)).replace("&", "&amp;")
        entries = "".join('<atom:entry><atom:id>urn:cvut:kos:%s:%s</atom:id><atom:content atom:type="xml" xsi:type="%s">%s</atom:content></atom:entry>'
                          % (kind.lower(), ident, kind, c) for ident, kind, c in page)
        self.send_atom("feed", '<atom:id>x</atom:id>%s%s<osearch:startIndex>%d</osearch:startIndex><osearch:totalResults>%d</osearch:totalResults>'
                       % (nxt, entries, offset, len(rows)))

    def send_atom(self, root, inner):
        """An Atom document with KOSapi's namespaces and an xml:base without its trailing slash."""
        body = ('<?xml version="1.0" encoding="UTF-8"?><atom:%s xmlns="http://kosapi.feld.cvut.cz/schema/3" xmlns:atom="http://www.w3.org/2005/Atom" '
                'xmlns:osearch="http://a9.com/-/spec/opensearch/1.1/" xmlns:xlink="http://www.w3.org/1999/xlink" '
                'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xml:base="http://%s/api/3" xml:lang="cs">%s</atom:%s>') % (
                    root, self.headers.get("Host"), inner, root)
        data = body.encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/atom+xml")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def atom_entry(self, kind, ident, link, content):
        self.send_atom("entry", '<atom:id>urn:cvut:kos:%s:%s</atom:id><atom:link rel="self" href="%s"/><atom:content atom:type="xml" xsi:type="%s">%s</atom:content>'
                       % (kind, ident, link, kind, content))


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print("PORT %d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
