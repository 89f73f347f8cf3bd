"""A second CalDAV client for the Tasks tests (the `caldav` library), editing the same calendars.

    caldav_client.py URL USER PASSWORD COMMAND ARGS...   (USER "-" = no authentication)

Commands (calendars by name: tasks, events):
    list CAL                          → JSON [{uid, summary, recurrence_ids, dtstart, due, status}]
    add-todo CAL UID SUMMARY DUE      (DUE as 20261201T100000Z)
    add-event CAL UID SUMMARY START END [RRULE]
    edit CAL UID SUMMARY              (changes SUMMARY of the master)
    delete CAL UID
    move-instance CAL UID RID START END   (adds an overridden instance)
"""
import json
import sys
from datetime import datetime, timezone

import caldav
import icalendar


def utc(text):
    return datetime.strptime(text, "%Y%m%dT%H%M%SZ").replace(tzinfo=timezone.utc)


def main():
    url, user, password, command, *args = sys.argv[1:]
    client = caldav.DAVClient(url=url, username=None if user == "-" else user, password=None if user == "-" else password)
    principal = client.principal()
    calendars = {c.name: c for c in principal.calendars()}
    cal = calendars[args[0]]

    def objects():
        # caldav 2.2's listing is an initial sync-collection, where Radicale 3.9 also lists deleted
        # objects (status 404); skip those rather than fail on them.
        for o in cal.objects(load_objects=False):
            try:
                o.load()
            except caldav.error.NotFoundError:
                continue
            yield o

    def find(uid):
        for o in objects():
            ical = icalendar.Calendar.from_ical(o.data)
            for comp in ical.walk():
                if comp.name in ("VTODO", "VEVENT") and str(comp.get("UID")) == uid:
                    return o, ical
        raise SystemExit("no object with UID %s" % uid)

    if command == "list":
        out = []
        for o in objects():
            ical = icalendar.Calendar.from_ical(o.data)
            masters = [c for c in ical.walk() if c.name in ("VTODO", "VEVENT") and c.get("RECURRENCE-ID") is None]
            rids = [c.get("RECURRENCE-ID").dt.astimezone(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
                    for c in ical.walk() if c.name in ("VTODO", "VEVENT") and c.get("RECURRENCE-ID") is not None]
            for m in masters:
                out.append({
                    "uid": str(m.get("UID")), "summary": str(m.get("SUMMARY", "")), "recurrence_ids": rids,
                    "status": str(m.get("STATUS")) if m.get("STATUS") is not None else None,
                    "alarms": len(list(m.walk("VALARM"))),
                })
        print(json.dumps(sorted(out, key=lambda x: x["uid"])))
    elif command == "add-todo":
        _, uid, summary, due = args
        cal.save_todo(uid=uid, summary=summary, due=utc(due))
    elif command == "add-event":
        uid, summary, start, end = args[1:5]
        extra = {"rrule": dict(p.split("=") for p in args[5].lower().split(";"))} if len(args) > 5 else {}
        cal.save_event(uid=uid, summary=summary, dtstart=utc(start), dtend=utc(end), **extra)
    elif command == "edit":
        _, uid, summary = args
        o, ical = find(uid)
        for comp in ical.walk():
            if comp.name in ("VTODO", "VEVENT") and comp.get("RECURRENCE-ID") is None:
                comp["SUMMARY"] = icalendar.vText(summary)
                comp["LAST-MODIFIED"] = icalendar.vDDDTypes(datetime.now(timezone.utc))
        o.data = ical.to_ical()
        o.save()
    elif command == "delete":
        o, _ = find(args[1])
        o.delete()
    elif command == "move-instance":
        _, uid, rid, start, end = args
        o, ical = find(uid)
        master = [c for c in ical.walk() if c.name == "VEVENT"][0]
        moved = icalendar.Event()
        moved.add("uid", uid)
        moved.add("recurrence-id", utc(rid))
        moved.add("summary", str(master.get("SUMMARY")) + " (moved)")
        moved.add("dtstart", utc(start))
        moved.add("dtend", utc(end))
        moved.add("dtstamp", datetime.now(timezone.utc))
        ical.add_component(moved)
        o.data = ical.to_ical()
        o.save()
    else:
        raise SystemExit("unknown command " + command)


if __name__ == "__main__":
    main()
