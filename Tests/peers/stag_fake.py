"""A fake IS/STAG server (REST rest2, the browser login, the ZCU canteen), written from
../shared/reference/stag-api.md with its quirks: date objects {"value": "d.M.yyyy"}, A/N flags,
numbers as strings, limit "null", plain-text OK answers and refusals with status 200, 401 for a
missing or expired ticket, 403 for a refused role, 500 for a missing osCislo or an ISO date, XML
when JSON is not asked for.

Tests change the data between job runs through /_admin/... (JSON bodies):
  POST /_admin/state        replace parts of the state (keys as in STATE below)
  POST /_admin/term         add or replace one exam term (by termIdno)
  POST /_admin/grade        add or replace one grade row (by katedra, zkratka, rok, semestr)
  POST /_admin/timetable    replace the timetable rows
  POST /_admin/seat         {"termIdno", "obsazeni"}: set a term's occupancy
  POST /_admin/expire       every ticket becomes invalid (401)
  POST /_admin/hang         {"on": true, "seconds": n}: every rest2 call hangs until turned off (at most n s)
  POST /_admin/login        {"user": "...", "mode": "normal" | "cancel" | "empty" | "space"}
  GET  /_admin/requests     the rest2 requests seen: [{"path", "query", "auth"}]
Prints `PORT <n>` when listening on 127.0.0.1.
"""
import argparse
import base64
import json
import secrets
import threading
from datetime import date
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit, parse_qs, quote

lock = threading.Lock()
hang = threading.Event()
hang_released = threading.Event()
hang_released.set()
hang_seconds = {"value": 600}

USERS = {
    "student": {
        "password": "heslo-studenta",
        "info": {"jmeno": "Jana", "prijmeni": "NOVÁKOVÁ", "email": "F20B0001P@students.zcu.cz",
                 "stagUserInfo": [{"userName": "F20B0001P", "role": "ST", "roleNazev": "Student", "fakulta": "FF",
                                   "osCislo": "F20B0001P", "email": "F20B0001P@students.zcu.cz"}]},
    },
    "dual": {
        "password": "heslo-ucitele",
        "info": {"jmeno": "Petr", "prijmeni": "Dvořák", "titulPred": "JUDr.", "email": "dvorakp@fpr.zcu.cz",
                 "stagUserInfo": [
                     {"userName": "DVORAKP", "role": "VY", "roleNazev": "Vyučující", "fakulta": "FPR", "katedra": "KPO",
                      "ucitIdno": 283755, "email": "dvorakp@fpr.zcu.cz"},
                     {"userName": "R21P0002P", "role": "ST", "roleNazev": "Student", "fakulta": "FPR",
                      "osCislo": "R21P0002P", "email": "dvorakp@fpr.zcu.cz"}]},
    },
}

STATE = {
    "timetable": [],      # rozvrhovaAkce rows with "datum"; "osCislo" / "ucitIdno" say whose they are
    "terms": [],          # termin rows; "osCislo" says whose
    "grades": [],         # student_na_predmetu rows; "os_cislo" says whose
    "subjects": [],       # predmetStudenta rows; "osCislo" says whose
    "subject_info": {},   # "KAT/CODE" -> getPredmetInfo object
    "teachers": {},       # "ucitIdno" -> getUcitelInfo object
    "students": {},       # "osCislo" -> getStudentInfo object
    "action_students": {},  # "roakIdno" -> studentPredmetu rows
    "theses": [],         # kvalifikacniPrace rows
    "harmonogram": {},    # "rok" -> harmonogramItem rows
    "canteen": {},        # "B0" -> {"mainCourses", "soups"}
    "buildings": [],      # mistnost/getBudovy items
    "rooms": [],          # mistnost/getMistnostiInfo rows
    "catalog": [],        # predmety/najdiPredmety and getPredmetyByFakulta rows; "fakulta" says whose list (not sent)
    "workplaces": [],     # ciselniky/getSeznamPracovist rows (faculties "F", departments "K")
    "teacher_subjects": {},  # "ucitIdno" -> predmetUcitele rows
    "refusal_status": 200,
    "failure": "",        # "xml": answers XML whatever is asked; "403": refuses every role; "500": fails every call
}
tickets = {}              # ticket -> user key
login = {"user": "student", "mode": "normal"}
requests_seen = []


def d(value):
    return {"value": value} if value is not None else None


def parse_stag_date(text):
    """d.M.yyyy (or dd.MM.yyyy); anything else (an ISO date) is the 500 STAG gives."""
    parts = text.split(".")
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        raise ValueError(text)
    return date(int(parts[2]), int(parts[1]), int(parts[0]))


# kalendar/getKalendarRoku: one row per day of an academic year (1 September to 31 August), as
# stag-mcp recorded ZČU 2026/27 (tests/Feature/Mcp/Tools/GetKalendarToolTest.php, SKILL.md):
# typRozvrhDne ZR/ZS/ZZ/LS/LZ/LP per period, typTydne S (even) / L (odd) by teaching week and J
# outside teaching, cisloTydne the ISO week, rozvrhDen the day whose timetable applies ("Sv" on a
# public holiday). The quirk that parity is per day: 22.12.2026 is taught as an odd Friday.
CALENDARS = {
    2026: {"ZS": (date(2026, 9, 21), 14), "ZZ_END": date(2027, 2, 14), "LS": (date(2027, 2, 15), 13), "LZ_END": date(2027, 6, 30),
           "holidays": {date(2026, 9, 28), date(2026, 10, 28), date(2026, 11, 17), date(2027, 5, 1), date(2027, 5, 8)},
           "overrides": {date(2026, 12, 22): {"typTydne": "L", "rozvrhDen": "Pá"}}},
}
DAYS = ["Po", "Út", "St", "Čt", "Pá", "So", "Ne"]


def calendar_rows(year):
    spec = CALENDARS.get(year)
    if spec is None:
        return []
    from datetime import timedelta
    rows, day = [], date(year, 9, 1)
    while day <= date(year + 1, 8, 31):
        period, parity = None, "J"
        for name, (start, weeks) in (("ZS", spec["ZS"]), ("LS", spec["LS"])):
            if start <= day < start + timedelta(weeks=weeks):
                period = name
                parity = "L" if ((day - start).days // 7) % 2 == 0 else "S"
        if period is None:
            zs_end = spec["ZS"][0] + timedelta(weeks=spec["ZS"][1])
            ls_end = spec["LS"][0] + timedelta(weeks=spec["LS"][1])
            period = ("ZR" if day < spec["ZS"][0] else "ZZ" if day <= spec["ZZ_END"] and day >= zs_end
                      else "LZ" if ls_end <= day <= spec["LZ_END"] else "LP")
        row = {"datum": d(f"{day.day}.{day.month}.{day.year}"), "rokPlatnosti": str(year),
               "rozvrhDen": "Sv" if day in spec["holidays"] else DAYS[day.weekday()], "typRozvrhDne": period, "typTydne": parity,
               "cisloTydne": day.isocalendar()[1]}
        row.update(spec["overrides"].get(day, {}))
        row["rozvrhDenStr"] = row["rozvrhDen"]
        rows.append(row)
        day += timedelta(days=1)
    return rows


def to_xml(value, name="response"):
    if isinstance(value, dict):
        inner = "".join(to_xml(v, k) for k, v in value.items() if v is not None)
        return f"<{name}>{inner}</{name}>"
    if isinstance(value, list):
        return "".join(to_xml(v, name) for v in value)
    text = str(value).replace("&", "&amp;").replace("<", "&lt;")
    return f"<{name}>{text}</{name}>"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body are separate writes: without TCP_NODELAY a small answer waits for the
    # client's delayed ACK (40 ms), which no real server shows.
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def send(self, status, body, content_type="application/json; charset=UTF-8", headers=None):
        data = body if isinstance(body, bytes) else body.encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def data(self, value, root=None):
        wants_json = self.query.get("outputFormat", [""])[0].lower() == "json" or "application/json" in (self.headers.get("Accept") or "")
        if wants_json:
            return self.send(200, json.dumps(value, ensure_ascii=False))
        return self.send(200, '<?xml version="1.0" encoding="UTF-8"?>' + to_xml(value, root or "response"), "application/xml; charset=UTF-8")

    def text(self, status, body):
        self.send(status, body, "text/plain; charset=UTF-8")

    def body_json(self):
        length = int(self.headers.get("Content-Length") or 0)
        return json.loads(self.rfile.read(length) or b"{}")

    # --- auth ---
    def ticket(self):
        cookie = self.headers.get("Cookie") or ""
        for part in cookie.split(";"):
            name, _, value = part.strip().partition("=")
            if name == "WSCOOKIE":
                return value, "cookie"
        auth = self.headers.get("Authorization") or ""
        if auth.startswith("Basic "):
            user, _, password = base64.b64decode(auth[6:]).decode().partition(":")
            if password == "":
                return user, "basic-ticket"
            return (user, password), "basic-password"
        return None, "none"

    def user(self):
        value, kind = self.ticket()
        if kind in ("cookie", "basic-ticket"):
            with lock:
                return tickets.get(value)
        if kind == "basic-password":
            name, password = value
            for key, user in USERS.items():
                roles = user["info"]["stagUserInfo"]
                if any(r["userName"].lower() == name.lower() for r in roles) and user["password"] == password:
                    return key
        return None

    def do_POST(self):
        parts = urlsplit(self.path)
        self.query = parse_qs(parts.query, keep_blank_values=True)
        body = self.body_json()
        with lock:
            if parts.path == "/_admin/state":
                STATE.update(body)
            elif parts.path == "/_admin/term":
                STATE["terms"] = [t for t in STATE["terms"] if t["termIdno"] != body["termIdno"]] + [body]
            elif parts.path == "/_admin/grade":
                key = lambda g: (g["katedra"], g["zkratka"], g["rok"], g["semestr"], g["os_cislo"])
                STATE["grades"] = [g for g in STATE["grades"] if key(g) != key(body)] + [body]
            elif parts.path == "/_admin/timetable":
                STATE["timetable"] = body["rows"]
            elif parts.path == "/_admin/seat":
                for t in STATE["terms"]:
                    if t["termIdno"] == body["termIdno"]:
                        t["obsazeni"] = str(body["obsazeni"])
                        # As STAG does: a full term cannot be booked; a freed seat makes it bookable.
                        if t["limit"] not in (None, "null") and not t["zapsan"]:
                            full = int(t["obsazeni"]) >= int(t["limit"])
                            t["lzeZapsatOdepsat"] = not full
                            t["kodDuvoduProcNelzeZapsatOdepsat"] = "PLNO" if full else "OK"
                            t["textDuvoduProcNelzeZapsatOdepsat"] = "Termín je plně obsazen." if full else None
            elif parts.path == "/_admin/expire":
                tickets.clear()
            elif parts.path == "/_admin/hang":
                if body.get("on"):
                    hang_seconds["value"] = body.get("seconds", 600)
                    hang_released.clear()
                    hang.set()
                else:
                    hang.clear()
                    hang_released.set()
            elif parts.path == "/_admin/login":
                login.update(body)
            else:
                return self.text(404, "unknown admin call")
        return self.send(200, "{}")

    def do_GET(self):
        parts = urlsplit(self.path)
        self.query = parse_qs(parts.query, keep_blank_values=True)
        path = parts.path
        if path == "/_admin/requests":
            with lock:
                return self.send(200, json.dumps(requests_seen))
        if path == "/ws/login":
            return self.login()
        if path.startswith("/rest/canteen/"):
            return self.canteen(path.rsplit("/", 1)[1])
        if not path.startswith("/ws/services/rest2/"):
            return self.text(404, "Nenalezeno")
        operation = path[len("/ws/services/rest2/"):]
        _, kind = self.ticket()
        with lock:
            requests_seen.append({"path": operation, "query": {k: v[0] for k, v in self.query.items()}, "auth": kind})
        if hang.is_set():
            hang_released.wait(hang_seconds["value"])
        try:
            return self.rest(operation)
        except ValueError as problem:
            return self.text(500, f"Chyba při zpracování požadavku: {problem}")

    def q(self, name):
        values = self.query.get(name)
        return values[0] if values else None

    def login(self):
        original = self.q("originalURL")
        if not original:
            return self.text(400, "chybí originalURL")
        user = USERS[login["user"]]
        mode = login["mode"]
        if mode in ("cancel", "empty"):
            ticket = "anonymous" if mode == "cancel" else ""
            query = f"stagUserTicket={ticket}&stagUserName=&stagUserRole=&stagUserInfo="
        else:
            ticket = secrets.token_hex(32)
            with lock:
                tickets[ticket] = login["user"]
            info = dict(user["info"])
            encoded = base64.b64encode(json.dumps(info, ensure_ascii=False).encode()).decode()
            pad = 0
            while mode == "space" and "+" not in encoded:
                pad += 1
                info["x"] = "~" * pad + "é"
                encoded = base64.b64encode(json.dumps(info, ensure_ascii=False).encode()).decode()
            if mode == "space":
                # The quirk: the '+' of the base64 arrives as a space.
                value = encoded.replace("+", "%20").replace("/", "%2F").replace("=", "%3D")
            else:
                value = quote(encoded, safe="")
            first = user["info"]["stagUserInfo"][0]
            query = f"stagUserTicket={ticket}&stagUserName={first['userName']}&stagUserRole={first['role']}&stagUserInfo={value}"
        location = original + ("&" if "?" in original else "?") + query
        self.send(302, "", "text/plain", {"Location": location})

    def canteen(self, which):
        shift = self.q("daysShift") or "0"
        with lock:
            menu = STATE["canteen"].get(which + shift)
        if which not in ("B", "K"):
            return self.text(404, "Unknown canteen")
        self.send(200, json.dumps(menu or {"mainCourses": [], "soups": []}, ensure_ascii=False))

    def roles(self, user_key):
        return USERS[user_key]["info"]["stagUserInfo"]

    def check_role(self, user_key):
        wanted = self.q("stagUser")
        if wanted and not any(r["userName"] == wanted for r in self.roles(user_key)):
            self.text(403, "Server odmítl požadovanou roli (refused the requested role)")
            return False
        return True

    def dates(self):
        start, end = self.q("datumOd"), self.q("datumDo")
        return (parse_stag_date(start) if start else None, parse_stag_date(end) if end else None)

    def rest(self, op):
        failure = STATE["failure"]
        if failure == "500":
            return self.text(500, "java.lang.NullPointerException")
        if failure == "403" and self.q("stagUser"):
            return self.text(403, "Server odmítl požadovanou roli (refused the requested role)")
        if failure == "xml":
            self.query.pop("outputFormat", None)
            self.headers.replace_header("Accept", "application/xml") if "Accept" in self.headers else None
        anonymous_ok = op in ("predmety/getPredmetInfo", "kalendar/getHarmonogramRoku", "kalendar/getAktualniObdobiInfo",
                              "kalendar/getKalendarRoku", "help/invalidateTicket", "ucitel/getUcitelInfo", "mistnost/getBudovy",
                              "predmety/najdiPredmety", "ciselniky/getSeznamPracovist")
        user_key = self.user()
        if user_key is None and not anonymous_ok:
            return self.text(401, "Neplatný nebo chybějící přihlašovací lístek.")
        if user_key is not None and not self.check_role(user_key):
            return
        with lock:
            state = json.loads(json.dumps(STATE))
        if op in ("help/getStagUserListForActualUser", "help/getStagUserListForActualUserV2", "help/getStagUserForActualUser"):
            info = USERS[user_key]["info"]
            roles = [dict({"katedra": None, "ucitIdno": None, "osCislo": None}, **r) for r in info["stagUserInfo"]]
            headers = {}
            value, kind = self.ticket()
            if kind == "basic-password":
                ticket = secrets.token_hex(32)
                with lock:
                    tickets[ticket] = user_key
                headers["Set-Cookie"] = f"WSCOOKIE={ticket}; Path=/ws; Secure; HttpOnly"
            if op.endswith("V2"):
                body = {"jmeno": info["jmeno"], "prijmeni": info["prijmeni"], "titulPred": info.get("titulPred"), "titulZa": None,
                        "email": info["email"], "stagUserInfo": roles}
            elif op.endswith("ForActualUser") and "List" not in op:
                body = roles[0]
            else:
                body = {"stagUserInfo": roles}
            return self.send(200, json.dumps(body, ensure_ascii=False), headers=headers)
        if op == "help/invalidateTicket":
            with lock:
                tickets.pop(self.q("ticket") or "", None)
            return self.text(200, "")
        if op in ("rozvrhy/getRozvrhByStudent", "rozvrhy/getRozvrhByUcitel"):
            who = "osCislo" if op.endswith("Student") else "ucitIdno"
            if not self.q(who):
                raise ValueError(f"chybí povinný parametr {who}")
            start, end = self.dates()
            rows = []
            for row in state["timetable"]:
                if str(row.get(who)) != self.q(who):
                    continue
                day = parse_stag_date(row["datum"]["value"])
                if (start and day < start) or (end and day > end):
                    continue
                rows.append({k: v for k, v in row.items() if k not in ("osCislo",) or who == "osCislo"})
            return self.data({"rozvrhovaAkce": rows}, "rozvrhovaAkce")
        if op == "terminy/getTerminyProStudenta":
            if not self.q("osCislo"):
                raise ValueError("chybí osCislo")
            return self.data({"termin": [t for t in state["terms"] if t["osCislo"] == self.q("osCislo")]})
        if op in ("terminy/zapisStudentaNaTermin", "terminy/odhlasStudentaZTerminu"):
            return self.register(op.endswith("NaTermin"))
        if op == "znamky/getZnamkyByStudent":
            if not self.q("osCislo"):
                raise ValueError("chybí osCislo")
            rok, semestr = self.q("rok") or "%", self.q("semestr") or "%"
            rows = [g for g in state["grades"] if g["os_cislo"] == self.q("osCislo") and rok in ("%", g["rok"]) and semestr in ("%", g["semestr"])]
            return self.data({"student_na_predmetu": rows})
        if op == "predmety/getPredmetyByStudent":
            if not self.q("osCislo"):
                raise ValueError("chybí osCislo")
            rows = [{k: v for k, v in s.items() if k != "osCislo"} for s in state["subjects"] if s["osCislo"] == self.q("osCislo")]
            return self.data({"predmetStudenta": rows})
        if op == "predmety/getPredmetInfo":
            info = state["subject_info"].get(f"{self.q('katedra')}/{self.q('zkratka')}")
            return self.data(info if info else [])
        if op == "ucitel/getUcitelInfo":
            return self.data(state["teachers"].get(self.q("ucitIdno") or "", []))
        if op == "student/getStudentInfo":
            if not self.q("osCislo"):
                raise ValueError("chybí osCislo")
            return self.data(state["students"].get(self.q("osCislo"), []))
        if op == "student/getStudentiByRoakce":
            return self.data({"studentPredmetu": state["action_students"].get(self.q("roakIdno") or "", [])})
        if op == "kvalifikacniprace/getKvalifikacniPrace":
            rows = [t for t in state["theses"] if str(t.get("ucitIdno")) == (self.q("ucitIdno") or "")]
            return self.data({"kvalifikacniPrace": [{k: v for k, v in t.items() if k != "ucitIdno"} for t in rows]})
        if op == "ucitel/najdiUcitelePodleJmena":
            # Surname prefix, case-insensitive. Answered as an older STAG did: the object inside an
            # array (Tests/peers/stag-reference-additions.md).
            surname, first = (self.q("prijmeni") or "").lower(), (self.q("jmeno") or "").lower()
            if not surname:
                raise ValueError("chybí prijmeni")
            rows = [t for t in state["teachers"].values()
                    if t["prijmeni"].lower().startswith(surname) and (not first or t["jmeno"].lower().startswith(first))]
            return self.data([{"ucitel": rows}])
        if op == "student/najdiStudentyPodleJmena":
            # A teacher's search: a student's role is refused as STAG refuses a role it does not
            # allow an operation (Tests/peers/stag-reference-additions.md). Surname and first name
            # are prefixes, case-insensitive; rows as getStudentInfo.
            wanted = self.q("stagUser")
            role = next((r for r in self.roles(user_key) if r["userName"] == wanted), self.roles(user_key)[0])
            if role["role"] == "ST":
                return self.text(403, "Server odmítl požadovanou roli (refused the requested role)")
            surname, first = (self.q("prijmeni") or "").lower(), (self.q("jmeno") or "").lower()
            if not surname:
                raise ValueError("chybí prijmeni")
            rows = [s for s in state["students"].values()
                    if (s.get("prijmeni") or "").lower().startswith(surname) and (not first or (s.get("jmeno") or "").lower().startswith(first))]
            return self.data({"student": rows})
        if op == "ucitel/getUciteleKatedry":
            if not self.q("katedra"):
                raise ValueError("chybí katedra")
            rows = [t for t in state["teachers"].values()
                    if t.get("katedra") == self.q("katedra") and (self.q("jenAktualni") != "true" or t.get("platnost", "A") == "A")]
            return self.data({"ucitel": rows})
        if op == "mistnost/getBudovy":
            return self.data({"items": state["buildings"]})
        if op == "mistnost/getMistnostiInfo":
            def matches(value, wanted):
                return wanted in (None, "", "%") or str(value) == wanted
            rows = [r for r in state["rooms"] if matches(r["zkrBudovy"], self.q("zkrBudovy")) and matches(r["cisloMistnosti"], self.q("cisloMistnosti"))]
            return self.data({"mistnostInfo": rows})
        if op == "rozvrhy/getRozvrhByMistnost":
            if not self.q("budova") or not self.q("mistnost"):
                raise ValueError("chybí budova nebo mistnost")
            start, end = self.dates()
            rows = []
            for row in state["timetable"]:
                if row.get("budova") != self.q("budova") or str(row.get("mistnost")) != self.q("mistnost"):
                    continue
                day = parse_stag_date(row["datum"]["value"])
                if (start and day < start) or (end and day > end):
                    continue
                rows.append({k: v for k, v in row.items() if k != "osCislo"})
            return self.data({"rozvrhovaAkce": rows}, "rozvrhovaAkce")
        if op == "predmety/najdiPredmety":
            # The department is `pracoviste` (matched against a row's `katedra`); `katedra` is not read.
            filters = {field: self.q(k) for k, field in (("pracoviste", "katedra"), ("zkratka", "zkratka"), ("nazev", "nazev"), ("rok", "rok"))
                       if self.q(k)}
            if not filters:
                raise ValueError("alespoň jeden filtr je povinný")
            rows = [{k: v for k, v in r.items() if k != "fakulta"} for r in state["catalog"] if all(r.get(k) == v for k, v in filters.items())]
            return self.data({"predmetKatedry": rows})
        if op == "predmety/getPredmetyByFakulta":
            # Every parameter optional (fakulta, rok, vyucovaciJazyk, jenNabizeneECTSPrijezdy): unfiltered it is the
            # whole catalogue. A ticket is needed (401 without). Rows as najdiPredmety's, under the same list name.
            rows = [{k: v for k, v in r.items() if k != "fakulta"} for r in state["catalog"]
                    if (not self.q("fakulta") or r["fakulta"] == self.q("fakulta")) and (not self.q("rok") or r["rok"] == self.q("rok"))]
            return self.data({"predmetKatedry": rows})
        if op == "ciselniky/getSeznamPracovist":
            typ, code, parent = self.q("typPracoviste"), self.q("zkratka"), self.q("nadrazenePracoviste")
            rows = [r for r in state["workplaces"] if (not typ or r["typPracoviste"] == typ) and (code in (None, "", "%") or r["zkratka"] == code)
                    and (not parent or r["nadrazenePracoviste"] == parent)]
            return self.data({"pracoviste": rows})
        if op == "predmety/getPredmetyByUcitel":
            if not self.q("ucitIdno"):
                raise ValueError("chybí ucitIdno")
            return self.data({"predmetUcitele": state["teacher_subjects"].get(self.q("ucitIdno"), [])})
        if op == "terminy/getTerminyZkousek":
            # At least one of zkratka/katedra/rok/osCislo (reference §3.9); the terms themselves,
            # without a student's flags.
            if not any(self.q(k) for k in ("zkratka", "katedra", "rok", "osCislo")):
                raise ValueError("alespoň jeden z parametrů zkratka, katedra, rok, osCislo")
            seen, rows = set(), []
            for t in state["terms"]:
                if any(self.q(k) and str(t.get(f)) != self.q(k) for k, f in (("zkratka", "predmet"), ("katedra", "katedra"), ("rok", "rok"))):
                    continue
                if t["termIdno"] in seen:
                    continue
                seen.add(t["termIdno"])
                rows.append({k: v for k, v in t.items() if k not in ("osCislo", "zapsan", "lzeZapsatOdepsat", "kodDuvoduProcNelzeZapsatOdepsat",
                                                                     "textDuvoduProcNelzeZapsatOdepsat", "popisDuvoduProcNelzeZapsatOdepsat")})
            return self.data({"termin": rows})
        if op == "kalendar/getKalendarRoku":
            # `rok` or `datum` (d.M.yyyy; an ISO date is STAG's 500): the academic year's days.
            if self.q("datum"):
                asked = parse_stag_date(self.q("datum"))
                year = asked.year if asked.month >= 9 else asked.year - 1
            else:
                year = int(self.q("rok") or 2026)
            return self.data({"kalendarItem": calendar_rows(year)})
        if op == "kalendar/getHarmonogramRoku":
            return self.data({"harmonogramItem": state["harmonogram"].get(self.q("rok") or "2026", [])})
        return self.text(404, f"Operace {op} neexistuje")

    def register(self, registering):
        term_id = self.q("termIdno")
        os_cislo = self.q("osCislo")
        if not term_id or not os_cislo:
            raise ValueError("chybí termIdno nebo osCislo")
        status = STATE["refusal_status"]
        with lock:
            term = next((t for t in STATE["terms"] if str(t["termIdno"]) == term_id and t["osCislo"] == os_cislo), None)
            if term is None:
                return self.text(status, "Termín neexistuje.")
            if registering:
                if term["zapsan"]:
                    return self.text(status, "Na termín jste již přihlášen(a).")
                limit = term["limit"]
                if limit not in (None, "null") and int(term["obsazeni"]) >= int(limit):
                    return self.text(status, "Termín je již plně obsazen.")
                if not term["lzeZapsatOdepsat"]:
                    return self.text(status, term.get("textDuvoduProcNelzeZapsatOdepsat") or "Na termín se nelze přihlásit.")
                term["zapsan"] = True
                term["obsazeni"] = str(int(term["obsazeni"]) + 1)
            else:
                if not term["zapsan"]:
                    return self.text(200, "OK")
                if not term["lzeZapsatOdepsat"]:
                    return self.text(status, "Z termínu se již nelze odhlásit.")
                term["zapsan"] = False
                term["obsazeni"] = str(max(0, int(term["obsazeni"]) - 1))
        return self.text(200, "OK")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    print(f"PORT {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
