"""Drives the daemon's web app in Debian's Chromium through Playwright, as a person does on a
phone (412x915, touch) and on a desktop, and prints what it saw as one JSON object. It decides
nothing: WebBrowserTests (Swift) holds every expectation.

    web_browser.py browse   <setup.json>   pairs, uses every page, keeps a worker's copy for later
    web_browser.py offline  <setup.json>   with the daemon stopped, opens Today from that copy
    web_browser.py seed-stag <fake base> <fixture.json> <YYYY-MM-DD>
                                           the STAG fake's fixture moved so that its first class is on that day

setup.json: {"base", "ctl", "shots", "profile", "task_title", "swipe_title", "swipe_id", "flight_date", "term_subject",
"secrets": [...]}.
The socket is in the environment (ASSISTANT_SOCKET); assistantctl is the person at the terminal.
Secrets come in the file, never on the command line.
"""

import datetime
import json
import os
import subprocess
import sys

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
PHONE = {"viewport": {"width": 412, "height": 915}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
PAGES = ["/", "/tasks", "/timetable", "/exams", "/printers", "/logbook", "/notices", "/settings"]


def ctl(setup, *arguments):
    """assistantctl's JSON answer (stdout is no terminal), or {"error": stderr}."""
    done = subprocess.run([setup["ctl"], *arguments], capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        return {"error": done.stderr.strip(), "status": done.returncode}
    return json.loads(done.stdout) if done.stdout.strip() else {}


def pair_address(setup, name, role):
    return ctl(setup, "web.pair", f"name={name}", f"role={role}")["url"]


def submit(page, selector, tap=False):
    """Presses a form's button and waits for the page the form leads to."""
    with page.expect_navigation():
        if tap:
            page.tap(selector)
        else:
            page.click(selector)


def pair(context, url):
    """Opens the one-time address and presses Pair; the page the device lands on."""
    page = context.new_page()
    page.goto(url)
    submit(page, "form[action='/pair'] button")
    return page


def serious(axe_results):
    """The ids of axe's serious and critical violations."""
    return sorted({v["id"] for v in axe_results.response["violations"] if v.get("impact") in ("serious", "critical")})


def browse(setup):
    seen = {}
    base = setup["base"]
    secrets = setup["secrets"]
    leaks = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)

        # Nothing without a session: every page, asset and action.
        stranger = browser.new_context(**PHONE)
        seen["unpaired"] = {path: stranger.request.get(base + path).status for path in PAGES + ["/assets/app.js", "/sw.js"]}
        seen["unpaired_post"] = stranger.request.post(base + "/call", form={"method": "tasks.add", "title": "x"}, headers={"Origin": base}).status

        # Pairing: the address once; a second use is refused.
        address = pair_address(setup, "phone", "full")
        phone = browser.new_context(**PHONE, locale="en-GB")

        def watch(response):
            try:
                body = response.body()
            except Exception:
                return
            text = body.decode("utf-8", "replace")
            for secret in secrets:
                if secret and secret in text:
                    leaks.append(response.url)
            for name, value in response.headers.items():
                if any(secret and secret in value for secret in secrets):
                    leaks.append(response.url + " " + name)

        phone.on("response", watch)
        page = pair(phone, address)
        seen["paired_url"] = page.url
        cookie = next((c for c in phone.cookies() if c["httpOnly"]), None)
        seen["cookie"] = {k: cookie[k] for k in ("httpOnly", "sameSite", "secure", "expires")} if cookie else None
        again = browser.new_context(**PHONE)
        reused = again.new_page()
        reused.goto(address)
        seen["reused_address"] = reused.inner_text("main")
        reused.close()
        again.close()

        # Today, its headers, its first paint at phone size.
        response = page.goto(base + "/")
        seen["headers"] = {k: response.headers.get(k) for k in ("content-security-policy", "x-frame-options", "referrer-policy")}
        seen["today"] = page.inner_text("main")
        seen["fcp_ms"] = page.evaluate(
            "() => (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime || null")
        seen["shots"] = []
        seen["axe"] = {}
        for path in PAGES:
            page.goto(base + path)
            name = "today" if path == "/" else path.strip("/")
            page.screenshot(path=os.path.join(setup["shots"], f"phone-{name}.png"), full_page=True)
            seen["shots"].append(f"phone-{name}.png")
            seen["axe"][path] = serious(Axe().run(page))
            seen.setdefault("overflow", {})[path] = page.evaluate("() => document.documentElement.scrollWidth > window.innerWidth")

        # Tapping Done on Today completes the task.
        page.goto(base + "/")
        submit(page, f"form.done button[aria-label$='{setup['task_title']}']", tap=True)
        seen["done_flash"] = page.inner_text(".flash[role=status]") if page.locator(".flash[role=status]").count() else None
        # Undo, beside what was said: the task is open again; then done for good.
        task_id = ctl(setup, "tasks.list", "when=all")["tasks"][0]["id"]
        submit(page, ".flash[role=status] form button", tap=True)
        seen["undone_flash"] = page.inner_text(".flash[role=status]") if page.locator(".flash[role=status]").count() else None
        seen["undone_status"] = ctl(setup, "tasks.get", f"id={task_id}").get("status")
        submit(page, f"form.done button[aria-label$='{setup['task_title']}']", tap=True)

        # Swiping a to-do's row to the right on Tasks marks it done, as a phone's list does.
        page.goto(base + "/tasks")
        row = page.locator("tr[data-swipe]", has_text=setup["swipe_title"]).first
        row.scroll_into_view_if_needed()
        box = row.bounding_box()
        touch = phone.new_cdp_session(page)
        x, y = box["x"] + 12, box["y"] + box["height"] / 2
        with page.expect_navigation():
            touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
            for step in range(1, 8):
                touch.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x + step * 25, "y": y}]})
            touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        seen["swiped_flash"] = page.inner_text(".flash[role=status]") if page.locator(".flash[role=status]").count() else None
        seen["swiped_status"] = ctl(setup, "tasks.get", f"id={setup['swipe_id']}").get("status")

        # Each field with a bad value: the message beside that field, what was typed kept, nothing saved.
        seen["bad_fields"] = {}
        for field, bad in [("due", "next blue moon"), ("rrule", "FREQ=SOMETIMES"), ("remind_before_min", "-5"), ("title", " ")]:
            before = ctl(setup, "tasks.list", "when=all").get("count")
            page.goto(base + "/tasks")
            typed = {"title": "Return the library books", "due": "2035-01-08 10:00", field: bad}
            for name, value in typed.items():
                page.fill(f"form.add input[name={name}]", value)
            submit(page, "form.add button")
            seen["bad_fields"][field] = {
                "error": page.inner_text(f"#error-{field}") if page.locator(f"#error-{field}").count() else None,
                "invalid": page.get_attribute(f"form.add input[name={field}]", "aria-invalid"),
                "kept": {name: page.input_value(f"form.add input[name={name}]") for name in typed},
                "typed": typed,
                "count_before": before,
                "count_after": ctl(setup, "tasks.list", "when=all").get("count"),
            }

        # A task added on the page with a reminder a minute before its due, 80 s from now: its
        # notice appears on the Notices page, opened before it fires, without a reload.
        due = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=80)).replace(microsecond=0)
        page.goto(base + "/tasks")
        page.fill("form.add input[name=title]", "Call the dean")
        page.fill("form.add input[name=due]", due.isoformat().replace("+00:00", "Z"))
        page.fill("form.add input[name=remind_before_min]", "1")
        submit(page, "form.add button")
        seen["added_flash"] = page.inner_text(".flash[role=status]") if page.locator(".flash[role=status]").count() else None
        page.goto(base + "/notices")
        page.evaluate("() => { window.notReloaded = true }")
        try:
            if page.locator("#notices li:has-text('Call the dean')").count():
                raise RuntimeError("the notice was there when the page opened: nothing was seen arrive live")
            page.wait_for_selector("#notices li:has-text('Call the dean')", timeout=60_000)
            seen["live_notice"] = page.inner_text("#notices li:has-text('Call the dean')")
        except Exception as error:
            seen["live_notice"] = None
            seen["live_notice_error"] = str(error).splitlines()[0]
        seen["live_not_reloaded"] = page.evaluate("() => window.notReloaded === true")

        # Exams: register asks first, naming the term; declining does nothing; confirming registers.
        page.goto(base + "/exams")
        row = page.locator("tr", has_text=setup["term_subject"]).filter(has=page.locator("button", has_text="Register")).first
        with page.expect_navigation():
            row.locator("button", has_text="Register").click()
        seen["exam_question"] = page.inner_text("p.question") if page.locator("p.question").count() else page.inner_text("main")
        submit(page, "text=No, go back")
        seen["exam_after_decline"] = ctl(setup, "stag.exams")
        page.goto(base + "/exams")
        row = page.locator("tr", has_text=setup["term_subject"]).filter(has=page.locator("button", has_text="Register")).first
        with page.expect_navigation():
            row.locator("button", has_text="Register").click()
        submit(page, "text=Yes, go ahead")
        seen["exam_flash"] = page.inner_text(".flash[role=status]") if page.locator(".flash[role=status]").count() else page.inner_text("main")
        seen["exam_after_confirm"] = ctl(setup, "stag.exams")

        # Printers: each printer's section, its temperature chart made through the daemon (and its
        # webcam: OctoPrint's virtual printer has none, so its place keeps only its caption).
        page.goto(base + "/printers")
        seen["printers"] = page.inner_text("main")
        pictures_js = """() => [...document.querySelectorAll('.pictures img')].map(i => ({
            alt: i.alt, loaded: i.complete && i.naturalWidth > 0, unavailable: i.closest('figure').classList.contains('unavailable'),
            refresh: i.dataset.refresh || null}))"""
        try:
            page.wait_for_function(
                "() => [...document.querySelectorAll('.pictures img')].every(i => i.complete && (i.naturalWidth > 0 || "
                "i.closest('figure').classList.contains('unavailable')))", timeout=20_000)
        except Exception as error:
            seen["printer_pictures_error"] = str(error).splitlines()[0]
        seen["printer_pictures"] = page.evaluate(pictures_js)

        # The page follows the print without a reload: drawn again (every 2 s here, 30 s as served).
        seen["printers_live"] = page.get_attribute("main", "data-live")
        page.evaluate("""() => { window.notReloaded = true; window.redrawn = 0;
            document.querySelector("main").addEventListener("redrawn", () => window.redrawn++);
            document.querySelector("main").dataset.live = "2"; }""")
        try:
            page.wait_for_function("() => window.redrawn >= 1", timeout=15_000)
        except Exception as error:
            seen["printers_redrawn_error"] = str(error).splitlines()[0]
        seen["printers_redrawn"] = page.evaluate("() => ({redrawn: window.redrawn, notReloaded: window.notReloaded === true, "
                                                 "text: document.querySelector('main').innerText})")

        # Logbook: airports offered as typed, a flight checked (derived times, nothing saved) and
        # then logged; the chart, and the PDF saved as a file.
        page.goto(base + "/logbook")
        page.fill("form.add input[name=date]", setup["flight_date"])
        page.fill("form.add input[name=aircraft]", "OK-SKA")
        page.locator("form.add input[name=dep]").press_sequentially("brno", delay=40)
        try:
            page.wait_for_selector("#suggest-dep option[value=LKTB]", state="attached", timeout=10_000)
            seen["airport_offered"] = page.eval_on_selector("#suggest-dep option[value=LKTB]", "o => o.label")
        except Exception as error:
            seen["airport_offered"] = None
            seen["airport_offered_error"] = str(error).splitlines()[0]
        for name, value in [("dep", "LKTB"), ("arr", "LKPR"), ("out", "14:10"), ("in", "15:02")]:
            page.fill(f"form.add input[name={name}]", value)
        page.select_option("form.add select[name=function]", "pic")
        flights = lambda: ctl(setup, "logbook.flights.list").get("total_count")
        submit(page, "form.add button[name=dry_run]")
        seen["flight_check"] = page.inner_text("dl.preview") if page.locator("dl.preview").count() else page.inner_text("main")
        seen["flight_kept"] = page.input_value("form.add input[name=out]")
        seen["flights_after_check"] = flights()
        submit(page, "form.add button:not([name])")
        seen["flight_flash"] = page.inner_text(".flash[role=status]") if page.locator(".flash[role=status]").count() else page.inner_text("main")
        seen["flights_after_save"] = flights()
        with page.expect_download() as saving:
            page.click("a[download]")
        download = saving.value
        with open(download.path(), "rb") as pdf:
            seen["pdf"] = {"name": download.suggested_filename, "head": pdf.read(5).decode("latin-1")}
        try:
            page.wait_for_function("() => [...document.querySelectorAll('.pictures img')].every(i => i.complete)", timeout=20_000)
        except Exception as error:
            seen["logbook_pictures_error"] = str(error).splitlines()[0]
        seen["logbook_pictures"] = page.evaluate(pictures_js)

        # KOS: the week of its semester's first teaching week in the merged grid; a full exam watched.
        page.goto(base + "/timetable?week=" + setup["kos_week"])
        seen["kos_week"] = page.inner_text("main")
        page.goto(base + "/exams")
        kos_row = page.locator("tr", has=page.locator("button", has_text="Watch")).filter(has_text="BI-OPT").first
        with page.expect_navigation():
            kos_row.locator("button", has_text="Watch").click()
        seen["kos_watch_flash"] = page.inner_text(".flash[role=status]") if page.locator(".flash[role=status]").count() else page.inner_text("main")
        seen["kos_watches"] = json.dumps(ctl(setup, "kos.exams.watches"))

        # Printers: cancel asks first; declining leaves the print running; confirming cancels.
        page.goto(base + "/printers")
        submit(page, "button:has-text('Cancel')")
        seen["print_question"] = page.inner_text("p.question") if page.locator("p.question").count() else page.inner_text("main")
        submit(page, "text=No, go back")
        seen["print_after_decline"] = ctl(setup, "octoprint.status")
        submit(page, "button:has-text('Cancel')")
        submit(page, "text=Yes, go ahead")
        seen["print_after_confirm"] = ctl(setup, "octoprint.status")

        # CSRF: a POST from the page's own origin, with the session but without the form's token.
        seen["no_csrf"] = phone.request.post(
            base + "/call", form={"method": "tasks.add", "title": "forged"}, headers={"Origin": base}).status
        seen["foreign_origin"] = phone.request.post(
            base + "/call", form={"method": "tasks.add", "title": "forged"}, headers={"Origin": "https://evil.example"}).status

        # A read device: it sees the pages, and its writes are refused.
        reader = browser.new_context(**DESKTOP, locale="en-GB")
        reader.on("response", watch)
        read_page = pair(reader, pair_address(setup, "wall", "read"))
        read_page.goto(base + "/tasks")
        seen["read_tasks_status"] = read_page.evaluate("() => document.title")
        count = ctl(setup, "tasks.list", "when=all").get("count")
        seen["read_has_form"] = read_page.locator("form.add").count()
        # No form is offered to it; one made in its page, with its own CSRF token, is refused.
        read_page.goto(base + "/settings")
        with read_page.expect_navigation():
            read_page.evaluate("""() => {
                const form = document.querySelector("form[action='/settings/language']");
                form.action = "/call";
                for (const [name, value] of [["method", "tasks.add"], ["title", "Written by a reader"]]) {
                    const input = document.createElement("input");
                    input.type = "hidden"; input.name = name; input.value = value; form.append(input);
                }
                form.submit();
            }""")
        seen["read_write"] = {"page": read_page.inner_text("main"), "before": count, "after": ctl(setup, "tasks.list", "when=all").get("count")}
        read_page.goto(base + "/")
        read_page.screenshot(path=os.path.join(setup["shots"], "desktop-today.png"), full_page=True)
        seen["desktop_overflow"] = read_page.evaluate("() => document.documentElement.scrollWidth > window.innerWidth")

        # Czech: chosen by Accept-Language, on Today and on a notice; English chosen in Settings wins.
        czech = browser.new_context(**PHONE, locale="cs-CZ")
        czech.on("response", watch)
        cs_page = pair(czech, pair_address(setup, "telefon", "full"))
        cs_page.goto(base + "/")
        seen["cs_today"] = {"heading": cs_page.inner_text("h1"), "nav": cs_page.inner_text("nav"), "lang": cs_page.get_attribute("html", "lang")}
        cs_page.screenshot(path=os.path.join(setup["shots"], "phone-today-cs.png"), full_page=True)
        cs_page.goto(base + "/notices")
        seen["cs_notices"] = cs_page.inner_text("main")
        cs_page.goto(base + "/settings")
        cs_page.select_option("select[name=language]", "en")
        submit(cs_page, "form[action='/settings/language'] button")
        cs_page.goto(base + "/")
        seen["cs_overridden"] = {"heading": cs_page.inner_text("h1"), "lang": cs_page.get_attribute("html", "lang")}

        # Revoked: out at once.
        devices = ctl(setup, "web.devices")
        devices = devices["devices"] if isinstance(devices, dict) else devices
        phone_id = next(d["id"] for d in devices if d["name"] == "phone")
        seen["revoke"] = ctl(setup, "web.revoke", f"id={phone_id}")
        seen["after_revoke"] = page.goto(base + "/").status
        seen["leaks"] = sorted(set(leaks))
        browser.close()

        # A device whose worker keeps Today, for the offline run after the daemon stops.
        keeper = p.chromium.launch_persistent_context(setup["profile"], executable_path=CHROMIUM, **PHONE)
        kept = pair(keeper, pair_address(setup, "offline", "full"))
        kept.goto(base + "/")
        kept.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
        # The worker takes the page over once active; this load goes through it and is kept.
        kept.reload()
        seen["controlled"] = kept.evaluate("() => navigator.serviceWorker.controller !== null")
        seen["kept_today"] = kept.inner_text("h1")
        keeper.close()
    return seen


def offline(setup):
    with sync_playwright() as p:
        keeper = p.chromium.launch_persistent_context(setup["profile"], executable_path=CHROMIUM, **PHONE)
        page = keeper.new_page()
        page.goto(setup["base"] + "/")
        seen = {"heading": page.inner_text("h1"), "as_of": page.inner_text("#offline") if page.locator("#offline:visible").count() else None}
        page.screenshot(path=os.path.join(setup["shots"], "phone-today-offline.png"), full_page=True)
        keeper.close()
        return seen


def seed_stag(base, fixture, day):
    """Every date of the fixture's timetable and exam terms moved by the same number of days, so
    that its first class (a Monday's lecture) falls on `day`, its weekday renamed to match."""
    import urllib.request

    with open(fixture) as file:
        state = json.load(file)
    target = datetime.date.fromisoformat(day)

    def parse(text):
        d, m, y = text.split(" ")[0].split(".")
        return datetime.date(int(y), int(m), int(d))

    shift = target - parse(state["timetable"][0]["datum"]["value"])

    def moved(text):
        date = parse(text) + shift
        rest = text.split(" ", 1)[1:]
        return " ".join([f"{date.day}.{date.month}.{date.year}", *rest])

    names = ["Pondělí", "Úterý", "Středa", "Čtvrtek", "Pátek", "Sobota", "Neděle"]
    for row in state["timetable"]:
        row["datum"]["value"] = moved(row["datum"]["value"])
        weekday = parse(row["datum"]["value"]).weekday()
        row["den"], row["denZkr"] = names[weekday], ["Po", "Út", "St", "Čt", "Pá", "So", "Ne"][weekday]
    for term in state["terms"]:
        for key in ("datum", "deadlineDatumOdhlaseni", "deadlineDatumPrihlaseni"):
            if term.get(key):
                term[key]["value"] = moved(term[key]["value"])
    request = urllib.request.Request(base + "/_admin/state", data=json.dumps(state).encode(), method="POST")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return {"status": answer.status, "shift_days": shift.days}


def main():
    mode, path = sys.argv[1], sys.argv[2]
    if mode == "seed-stag":
        print(json.dumps(seed_stag(path, sys.argv[3], sys.argv[4])))
        return
    with open(path) as file:
        setup = json.load(file)
    seen = browse(setup) if mode == "browse" else offline(setup)
    print(json.dumps(seen, ensure_ascii=False))


if __name__ == "__main__":
    main()
