"""A fake CTU OAuth server (Zuul OAAS, reference §2) for the KOS plugin's tests.

/oauth/token (client_credentials, authorization_code, refresh_token; client auth by HTTP Basic),
/oauth/authorize (302 back to the redirect_uri with code and state), /oauth/userinfo (Bearer).
KOSapi (under /api/3, Bearer only): semesters, students/{u} (+ enrolledCourses, parallels, exams),
courses (RSQL subset) and courses/{code} (+ exams, events), exams/{id}, people (RSQL search),
teachers (RSQL by username), divisions/{code}/teachers. Atom with KOSapi's namespaces and the
slash-less xml:base; feeds page by two by default (`limit` is honoured up to PAGE_MAX, smaller than
the real 1000 so that paging is exercised); `lang` with `multilang=true` for every language
variant, else only the asked one; `fields=entry(content(a,b))` keeps only those elements.
String matching in RSQL is case-insensitive but NOT diacritics-insensitive, so a search for
"novak" does not find "Novák" unless the client widens its pattern.
Admin (POST, JSON): /_admin/authorize {"mode": "normal" | "deny" | "wrong_state", "user"?: who signs in},
/_admin/expire (every access token becomes invalid), /_admin/revoke (every refresh token too),
/_admin/exam {"id", …fields of EXAMS}: add an exam or change one (occupancy),
/_admin/event {"id", …fields of EVENTS}, /_admin/enrollment {"code", "completed"?, "assessment"?},
/_admin/hang {"on": bool, "seconds": n}: KOSapi calls hang until turned off (at most n s);
GET /_admin/requests: [{"method", "path", "query", "auth"}].
Prints `PORT <n>` when listening on 127.0.0.1.
"""
import base64
import json
import re
import threading
import uuid
import xml.etree.ElementTree as ET
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit, parse_qs, urlencode, unquote
from xml.sax.saxutils import escape

CLIENT_ID, CLIENT_SECRET = "assistant-app", "app-secret-123"
lock = threading.Lock()
codes = {}        # code -> redirect_uri
access = {}       # token -> username or None (client credentials)
refresh = {}      # token -> username
mode = {"authorize": "normal"}
seen = []
PAGE_MAX = 10
hang_released = threading.Event()
hang_released.set()
hang_seconds = {"value": 600}
NS = {"": "http://kosapi.feld.cvut.cz/schema/3", "xlink": "http://www.w3.org/1999/xlink", "xsi": "http://www.w3.org/2001/XMLSchema-instance"}
for prefix, uri in NS.items():
    ET.register_namespace(prefix, uri)


def slot(day, first, duration, parity, room, extra=""):
    return ('<timetableSlot><day>%d</day><duration>%d</duration><firstHour>%d</firstHour><parity>%s</parity>'
            '<room xlink:href="rooms/%s/">%s</room>%s</timetableSlot>') % (day, duration, first, parity, room, room, extra)


def internal(code, name, semester, completed, assessment):
    return {"code": code, "name": name, "semester": semester, "completed": completed, "assessment": assessment}


def enrollment_xml(e):
    if "external" in e:
        return ("externalCourseEnrollment", e["semester"], e["external"])
    return ("internalCourseEnrollment", e["semester"],
            '<assessment>%s</assessment><completed>%s</completed><course xlink:href="courses/%s/">%s</course><semester xlink:href="semesters/%s/">%s</semester>'
            % (str(e["assessment"]).lower(), str(e["completed"]).lower(), e["code"], e["name"], e["semester"], e["semester"]))


ENROLLMENTS = [
    internal("BI-OPT", "Optimalizace", "B251", False, True),
    internal("BI-PA2", "Programování a algoritmizace 2", "B251", False, False),
    internal("BI-ZMA", "Základy matematické analýzy", "B251", True, True),
    {"semester": "B251", "external":
     '<assessment>true</assessment><completed>true</completed><completion>CREDIT</completion><credits>2</credits>'
     '<name xml:lang="cs">Tělesná výchova</name><semester xlink:href="semesters/B251/">B251</semester>'},
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


def course_name(content):
    found = re.search(r'<name xml:lang="cs">(.*?)</name>', content)
    return found.group(1) if found else ""


# A teacher's own slots (reference §5.5: teacherTimetableSlot, no room, a title).
TEACHER_TIMETABLE = {"novakpet": [
    '<day>5</day><duration>2</duration><firstHour>5</firstHour><parity>ODD</parity><title>BI-OPT cvičení 105</title>',
    '<day>2</day><duration>1</duration><startTime>16:15:00</startTime><endTime>17:45:00</endTime><parity>BOTH</parity><title>Konzultace</title>',
]}

# Rooms (reference §7: capacity repeated with its purpose).
ROOMS = {"TH:A-1442": '<capacity for="lecture">48</capacity><capacity for="exam">24</capacity><code>TH:A-1442</code><locality>Dejvice</locality>'
                      '<name xml:lang="cs">Učebna A-1442</name><type>CLASSROOM</type>'}


def group_xml(code, name, role, credits_min, courses_min, courses):
    links = "".join('<course xlink:href="courses/%s/">%s</course>' % (c, course_name(COURSES.get(c, ""))) for c in courses)
    return ('<approved>true</approved><code>%s</code>%s%s<name xml:lang="cs">%s</name><role>%s</role><courses>%s</courses>'
            % (code, '<coursesMinLimit>%d</coursesMinLimit>' % courses_min if courses_min is not None else "",
               '<creditsMinLimit>%d</creditsMinLimit>' % credits_min if credits_min is not None else "", name, role, links))


# Study plan 12345's course groups (element names as the ctu-fee-group/KosApi client's CoursesGroup):
# compulsory PA1, ZMA (completed) and OPT (not), 18 credits; PV: PA2 and LIN (neither completed), 4 credits.
COURSES_GROUPS = {"12345": [
    ("BI-Z", group_xml("BI-Z", "Povinné předměty", "Z", 18, None, ["BI-PA1", "BI-ZMA", "BI-OPT"])),
    ("BI-PV", group_xml("BI-PV", "Povinně volitelné předměty", "PV", 4, 1, ["BI-PA2", "BI-LIN"])),
]}


EXAMS = {
    901: {"course": "BI-OPT", "start": "2027-01-10T09:00:00", "end": "2027-01-10T11:00:00", "capacity": 20, "occupied": 20, "registered": False,
          "term": "FINAL_EXAM", "room": "T9:105"},
    902: {"course": "BI-OPT", "start": "2027-01-17T09:00:00", "end": "2027-01-17T11:00:00", "capacity": 20, "occupied": 5, "registered": True,
          "term": "FINAL_EXAM", "room": "T9:107"},
    903: {"course": "BI-ZMA", "start": "2027-01-12T13:00:00", "end": "2027-01-12T15:00:00", "capacity": 30, "occupied": 12, "registered": False,
          "term": "ASSESSMENT", "room": "T9:350"},
}


EVENTS = {
    701: {"course": "BI-OPT", "name_cs": "Průběžný test 1", "name_en": "Midterm test 1", "start": "2026-11-30T16:15:00", "end": "2026-11-30T17:45:00",
          "room": "T9:155", "capacity": 60, "occupied": 41, "note": "Bring a calculator; no notes allowed."},
    702: {"course": "BI-PA2", "name_cs": "Programovací test", "name_en": "", "start": "2026-12-07T18:00:00", "end": "2026-12-07T19:30:00",
          "room": "T9:350", "capacity": 30, "occupied": 30},
}


def event_xml(e):
    return ('<capacity>%d</capacity><course xlink:href="courses/%s/">%s</course><endDate>%s</endDate><name xml:lang="cs">%s</name>'
            '<name xml:lang="en">%s</name>%s<occupied>%d</occupied><room xlink:href="rooms/%s/">%s</room><semester xlink:href="semesters/B251/">B251</semester>'
            '<signinDeadline>%s</signinDeadline><startDate>%s</startDate>') % (
                e["capacity"], e["course"], e["course"], e["end"], e["name_cs"], e["name_en"],
                "<note>%s</note>" % escape(e["note"]) if e.get("note") else "", e["occupied"], e["room"], e["room"], e["start"][:10], e["start"])


def person(username, first, last, pre="", post="", teacher=None, student=False):
    return {"username": username, "first": first, "last": last, "pre": pre, "post": post, "teacher": teacher, "student": student}


# Teachers carry a division and an e-mail; a person has only names and roles (reference §7).
PEOPLE = [
    person("novakjan", "Jan", "Novák", student=True),
    person("novakpet", "Petr", "Novák", "Mgr.", "Ph.D.", teacher={"division": "18102", "email": "petr.novak@fit.cvut.cz", "phone": "+420 224 359 811"}),
    person("dvorakto", "Tomáš", "Dvořák", "Ing.", "Ph.D.", teacher={"division": "18102", "email": "tomas.dvorak@fit.cvut.cz"}),
    person("svobodav", "Vojtěch", "Svoboda", "Ing.", "Ph.D.", teacher={"division": "18101", "email": "vojtech.svoboda@fit.cvut.cz"}),
    person("cernyj", "Jan", "Černý", "Ing.", teacher={"division": "18102", "email": "jan.cerny@fit.cvut.cz"}),
    person("obriesea", "Seán", "O'Brien", teacher={"division": "18101", "email": "sean.obrien@fit.cvut.cz"}, student=True),
    person("bergmart", "Martijn", "van der Berg", "Dr.", teacher={"division": "18101", "email": "martijn.vanderberg@fit.cvut.cz"}),
    person("zizkova", "Žofie", "Žížková", "doc. Ing.", "CSc.", teacher={"division": "18102", "email": "zofie.zizkova@fit.cvut.cz"}),
    person("adamekja", "Jan Pavel", "Adámek", "Ing.", teacher={"division": "18102", "email": "jan.adamek@fit.cvut.cz"}),
] + [person("novak%03d" % i, ["Adam", "Eva", "Ondřej", "Kateřina"][i % 4], ["Novák", "Nováková", "Novak"][i % 3], student=True) for i in range(40)]


def exam_xml(e):
    return ('<cancelDeadline>%s</cancelDeadline><capacity>%d</capacity><course xlink:href="courses/%s/">%s</course><endDate>%s</endDate>'
            '<examiners><teacher xlink:href="teachers/dvorakto/">Ing. Tomáš Dvořák Ph.D.</teacher></examiners><occupied>%d</occupied>'
            '<room xlink:href="rooms/%s/">%s</room><signinDeadline>%s</signinDeadline><startDate>%s</startDate><termType>%s</termType>') % (
                e.get("cancel", e["start"][:10]), e["capacity"], e["course"], e["course"], e.get("end", e["start"]), e["occupied"], e["room"], e["room"],
                e.get("signin", e["start"][:10]), e["start"], e["term"])


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


def rsql_like(pattern, value):
    """RSQL string matching: `*` any run, `_` one character, case-insensitive; diacritics count."""
    regex = "".join(".*" if ch == "*" else "." if ch == "_" else re.escape(ch) for ch in pattern)
    return re.fullmatch(regex, value, re.IGNORECASE | re.DOTALL) is not None


class RSQL:
    """The RSQL subset of the reference §4: ==, ',' (or), ';' (and), parentheses, quoted or bare
    arguments. Raises ValueError on anything else (the fake answers 400)."""

    def __init__(self, text):
        self.text, self.pos = text, 0

    def parse(self):
        node = self.disjunction()
        if self.pos != len(self.text):
            raise ValueError("unexpected %r" % self.text[self.pos:])
        return node

    def disjunction(self):
        nodes = [self.conjunction()]
        while self.peek(","):
            self.pos += 1
            nodes.append(self.conjunction())
        return ("or", nodes)

    def conjunction(self):
        nodes = [self.term()]
        while self.peek(";"):
            self.pos += 1
            nodes.append(self.term())
        return ("and", nodes)

    def peek(self, ch):
        return self.pos < len(self.text) and self.text[self.pos] == ch

    def term(self):
        if self.peek("("):
            self.pos += 1
            node = self.disjunction()
            if not self.peek(")"):
                raise ValueError("missing )")
            self.pos += 1
            return node
        m = re.match(r"([A-Za-z.]+)==", self.text[self.pos:])
        if not m:
            raise ValueError("bad selector at %r" % self.text[self.pos:])
        self.pos += m.end()
        if self.pos < len(self.text) and self.text[self.pos] in "'\"":
            quote = self.text[self.pos]
            end = self.text.find(quote, self.pos + 1)
            if end < 0:
                raise ValueError("unterminated quote")
            value = self.text[self.pos + 1:end]
            self.pos = end + 1
        else:
            m2 = re.match(r"[^,;()'\" ]+", self.text[self.pos:])
            if not m2:
                raise ValueError("missing argument")
            value = m2.group(0)
            self.pos += m2.end()
        return ("eq", m.group(1), value)


def rsql_match(node, fields):
    kind = node[0]
    if kind == "or":
        return any(rsql_match(n, fields) for n in node[1])
    if kind == "and":
        return all(rsql_match(n, fields) for n in node[1])
    return rsql_like(node[2], fields.get(node[1], ""))


def person_xml(p):
    roles = ('<student xlink:href="students/%s/">%s</student>' % (p["username"], p["username"]) if p["student"] else "") + (
        '<teacher xlink:href="teachers/%s/">%s</teacher>' % (p["username"], p["username"]) if p["teacher"] else "")
    return ('<firstName>%s</firstName><lastName>%s</lastName><roles>%s</roles><titlesPost>%s</titlesPost><titlesPre>%s</titlesPre>'
            '<username>%s</username>') % (esc(p["first"]), esc(p["last"]), roles, p["post"], p["pre"], p["username"])


def teacher_xml(p):
    phone = '<phone>%s</phone>' % p["teacher"]["phone"] if p["teacher"].get("phone") else ""
    return ('<division xlink:href="divisions/%s/">%s</division><email>%s</email><firstName>%s</firstName><lastName>%s</lastName>%s'
            '<titlesPost>%s</titlesPost><titlesPre>%s</titlesPre><username>%s</username>') % (
                p["teacher"]["division"], p["teacher"]["division"], p["teacher"]["email"], esc(p["first"]), esc(p["last"]), phone, p["post"], p["pre"],
                p["username"])


def esc(text):
    return text.replace("&", "&amp;").replace("<", "&lt;")


def project(content, query):
    """`lang`/`multilang` and `fields=entry(content(a,b))` applied to one entry's content."""
    multilang = query.get("multilang", ["false"])[0] == "true"
    fields = query.get("fields", [None])[0]
    if multilang and not fields:
        return content
    lang = query.get("lang", ["cs"])[0]
    root = ET.fromstring('<c xmlns="%s" xmlns:xlink="%s">%s</c>' % (NS[""], NS["xlink"], content))
    keep = None
    if fields:
        m = re.fullmatch(r"entry\(content\(([A-Za-z,]+)\)\)", fields)
        if not m:
            raise ValueError("unsupported fields %r" % fields)
        keep = set(m.group(1).split(","))
    lang_attr = "{http://www.w3.org/XML/1998/namespace}lang"
    for child in list(root):
        local = child.tag.split("}")[-1]
        if keep is not None and local not in keep:
            root.remove(child)
        elif not multilang and child.get(lang_attr) is not None:
            if child.get(lang_attr) != lang:
                root.remove(child)
            else:
                del child.attrib[lang_attr]
    text = ET.tostring(root, encoding="unicode")
    return text[text.index(">") + 1:text.rindex("<")]


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

    def record(self, parts, grant=None):
        auth = self.headers.get("Authorization") or ""
        entry = {"method": self.command, "path": parts.path, "query": parts.query, "auth": auth.split(" ")[0].lower() if auth else "none"}
        if grant is not None:
            entry["grant"] = grant
        with lock:
            seen.append(entry)

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
                    mode["authorize"] = body.get("mode", "normal")
                    # Who the login page signs in (another student for a second account).
                    mode["user"] = body.get("user", "novakjan")
                elif parts.path == "/_admin/expire":
                    access.clear()
                elif parts.path == "/_admin/revoke":
                    access.clear()
                    refresh.clear()
                elif parts.path == "/_admin/exam":
                    if "start" in body and "end" not in body:
                        body["end"] = body["start"]
                    EXAMS.setdefault(int(body["id"]), {"course": "BI-OPT", "start": "2027-01-20T09:00:00", "end": "2027-01-20T11:00:00", "capacity": 20,
                                                       "occupied": 0, "registered": False, "term": "FINAL_EXAM", "room": "T9:105"}).update(
                        {k: v for k, v in body.items() if k != "id"})
                elif parts.path == "/_admin/event":
                    EVENTS.setdefault(int(body["id"]), {"course": "BI-OPT", "name_cs": "Test", "name_en": "Test", "start": "2026-12-14T16:15:00",
                                                        "end": "2026-12-14T17:45:00", "room": "T9:155", "capacity": 60, "occupied": 0}).update(
                        {k: v for k, v in body.items() if k != "id"})
                elif parts.path == "/_admin/enrollment":
                    for e in ENROLLMENTS:
                        if e.get("code") == body["code"]:
                            e.update({k: v for k, v in body.items() if k in ("completed", "assessment")})
                elif parts.path == "/_admin/hang":
                    if body.get("on"):
                        hang_seconds["value"] = body.get("seconds", 600)
                        hang_released.clear()
                    else:
                        hang_released.set()
            return self.answer(200, {})
        form = parse_qs(raw)
        self.record(parts, form.get("grant_type", [""])[0] if parts.path == "/oauth/token" else None)
        if parts.path != "/oauth/token":
            return self.answer(404, {"error": "not_found"})
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
            return self.answer(200, self.tokens(mode.get("user", "novakjan")))
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
        if not hang_released.is_set():
            hang_released.wait(hang_seconds["value"])
        try:
            return self.kosapi_resource(resource)
        except ValueError as error:
            return self.answer(400, {"error": str(error)})

    def kosapi_resource(self, resource):
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
            with lock:
                rows = [(i,) + enrollment_xml(e) for i, e in enumerate(ENROLLMENTS)]
            rows = [(i, kind, c) for i, kind, semester, c in rows if sem == "none" or semester == {"current": "B251", "prev": "B242"}.get(sem, sem)]
            return self.feed("students/%s/enrolledCourses" % user, [(str(i), kind, c) for i, kind, c in rows])
        if resource.startswith("courses/") and resource.endswith("/exams"):
            code = resource.split("/")[1]
            with lock:
                rows = [(str(i), "exam", exam_xml(e)) for i, e in sorted(EXAMS.items()) if e["course"] == code]
            return self.feed(resource, rows)
        if resource.startswith("courses/") and resource.endswith("/events"):
            code = resource.split("/")[1]
            with lock:
                rows = [(str(i), "courseEvent", event_xml(e)) for i, e in sorted(EVENTS.items()) if e["course"] == code]
            return self.feed(resource, rows)
        if resource.startswith("exams/"):
            with lock:
                e = EXAMS.get(int(resource.split("/")[1])) if resource.split("/")[1].isdigit() else None
            if e is None:
                return self.answer(404, {"error": "no such exam"})
            return self.atom_entry("exam", resource.split("/")[1], resource + "/", exam_xml(e))
        if resource.startswith("students/") and resource.endswith("/exams"):
            if user is None:
                return self.answer(403, {"error": "a user token is needed"})
            with lock:
                rows = [(str(i), "exam", exam_xml(e)) for i, e in sorted(EXAMS.items()) if e["registered"]]
            return self.feed(resource, rows)
        if resource == "people":
            node = RSQL(parse_qs(urlsplit(self.path).query).get("query", [""])[0]).parse()
            rows = [(p["username"], "person", person_xml(p)) for p in PEOPLE
                    if rsql_match(node, {"username": p["username"], "firstName": p["first"], "lastName": p["last"]})]
            return self.feed(resource, rows)
        if resource == "teachers":
            node = RSQL(parse_qs(urlsplit(self.path).query).get("query", [""])[0]).parse()
            rows = [(p["username"], "teacher", teacher_xml(p)) for p in PEOPLE
                    if p["teacher"] and rsql_match(node, {"username": p["username"], "firstName": p["first"], "lastName": p["last"]})]
            return self.feed(resource, rows)
        if resource.startswith("divisions/") and resource.endswith("/teachers"):
            code = resource.split("/")[1]
            return self.feed(resource, [(p["username"], "teacher", teacher_xml(p)) for p in PEOPLE if p["teacher"] and p["teacher"]["division"] == code])
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
            # RSQL over code and the Czech name (matching counts diacritics, as KOSapi's does).
            try:
                node = RSQL(query).parse()
            except ValueError:
                return self.answer(400, {"error": "bad query %r" % query})
            rows = [(code, "course", COURSES[code]) for code in sorted(COURSES)
                    if rsql_match(node, {"code": code, "name": course_name(COURSES[code])})]
            return self.feed("courses", rows)
        if resource.startswith("courses/") and resource.endswith("/parallels"):
            code = resource.split("/")[1]
            return self.feed(resource, [(ident, "parallel", content) for ident, content in PARALLELS
                                        if 'course xlink:href="courses/%s/"' % code in content])
        if resource.startswith("teachers/") and resource.endswith("/timetable"):
            username = resource.split("/")[1]
            return self.feed(resource, [(str(i), "teacherTimetableSlot", c) for i, c in enumerate(TEACHER_TIMETABLE.get(username, []))])
        if resource.startswith("teachers/"):
            username = resource.split("/")[1]
            found = [p for p in PEOPLE if p["username"] == username and p["teacher"]]
            if not found:
                return self.answer(404, {"error": "no such teacher"})
            return self.atom_entry("teacher", username, resource + "/", teacher_xml(found[0]))
        if resource.startswith("rooms/"):
            code = unquote(resource.split("/", 1)[1].rstrip("/"))
            if code not in ROOMS:
                return self.answer(404, {"error": "no such room"})
            return self.atom_entry("room", code, "rooms/%s/" % code, ROOMS[code])
        if resource.startswith("studyPlans/") and resource.endswith("/coursesGroups"):
            if user is None:
                return self.answer(403, {"error": "a user token is needed"})
            plan = resource.split("/")[1]
            return self.feed(resource, [(code, "coursesGroup", content) for code, content in COURSES_GROUPS.get(plan, [])])
        if resource.startswith("students/") and resource.endswith("/parallels"):
            if user is None:
                return self.answer(403, {"error": "a user token is needed"})
            return self.feed(resource, [(ident, "parallel", content) for ident, content in PARALLELS])
        if resource.startswith("students/"):
            if user is None:
                return self.answer(403, {"error": "a user token is needed"})
            content = ('<firstName>Jan</firstName><lastName>Novák</lastName><username>%s</username><grade>2</grade>'
                       '<studyState>ACTIVE</studyState><studyGroup>101</studyGroup>'
                       '<programme xlink:href="programmes/B2646/">Informatika</programme>'
                       '<studyPlan xlink:href="studyPlans/12345/">Bakalářský 2024</studyPlan>') % user
            return self.atom_entry("student", "1", "students/%s/" % user, content)
        return self.answer(404, {"error": "not_found"})

    def feed(self, path, rows):
        """Pages of two (a small default page size), `rel="next"` relative to the slash-less
        xml:base, the other parameters kept."""
        query = parse_qs(urlsplit(self.path).query)
        offset = int(query.get("offset", ["0"])[0])
        limit = min(int(query.get("limit", ["2"])[0]), PAGE_MAX)
        page = rows[offset:offset + limit]
        nxt = ""
        if offset + limit < len(rows):
            rest = [(k, v[0]) for k, v in query.items() if k not in ("offset", "limit")]
            nxt = '<atom:link rel="next" href="%s"/>' % (path + "?" + urlencode([("offset", offset + limit), ("limit", limit)] + rest)).replace("&", "&amp;")
        entries = "".join('<atom:entry><atom:id>urn:cvut:kos:%s:%s</atom:id><atom:content atom:type="xml" xsi:type="%s">%s</atom:content></atom:entry>'
                          % (kind.lower(), ident, kind, project(c, query)) for ident, kind, c in page)
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
        content = project(content, parse_qs(urlsplit(self.path).query))
        self.send_atom("entry", '<atom:id>urn:cvut:kos:%s:%s</atom:id><atom:link rel="self" href="%s"/><atom:content atom:type="xml" xsi:type="%s">%s</atom:content>'
                       % (kind, ident, link, kind, content))


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print("PORT %d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
