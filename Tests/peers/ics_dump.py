"""Reads an .ics file with the `icalendar` library (independent of libical) and prints its
components as JSON, so the Tasks tests compare every field the plugin wrote.

    ics_dump.py FILE          → {"components": [...], "timezones": [...]}
    ics_dump.py --write FILE  → writes a calendar as another client would (ATTENDEE, X- props, an override)
"""
import json
import sys
from datetime import date, datetime, timedelta, timezone

import icalendar


def when(value):
    if value is None:
        return None
    dt = value.dt
    if isinstance(dt, datetime):
        if dt.tzinfo is None:
            return {"wall": dt.strftime("%Y-%m-%dT%H:%M:%S")}
        tzid = value.params.get("TZID")
        return {"wall": dt.strftime("%Y-%m-%dT%H:%M:%S"), "tzid": tzid,
                "utc": dt.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
    if isinstance(dt, date):
        return {"date": dt.strftime("%Y-%m-%d")}
    if isinstance(dt, timedelta):
        return {"seconds": int(dt.total_seconds())}
    return {"other": str(dt)}


def many(component, name):
    values = component.get(name)
    if values is None:
        return []
    if not isinstance(values, list):
        values = [values]
    out = []
    for v in values:
        for d in v.dts:
            out.append(when(d))
    return out


def categories(component):
    values = component.get("CATEGORIES")
    if values is None:
        return []
    if not isinstance(values, list):
        values = [values]
    out = []
    for v in values:
        out.extend(str(c) for c in v.cats)
    return out


def dump(path):
    with open(path, "rb") as f:
        cal = icalendar.Calendar.from_ical(f.read())
    components, zones = [], []
    for c in cal.walk():
        if c.name == "VTIMEZONE":
            zones.append(str(c.get("TZID")))
        if c.name not in ("VTODO", "VEVENT"):
            continue
        alarms = []
        for a in c.walk("VALARM"):
            trig = a.get("TRIGGER")
            alarms.append({"trigger": when(trig), "related": trig.params.get("RELATED"), "action": str(a.get("ACTION"))})
        related = c.get("RELATED-TO")
        item = {
            "kind": c.name, "uid": str(c.get("UID")), "summary": str(c.get("SUMMARY", "")),
            "description": str(c.get("DESCRIPTION", "")) if c.get("DESCRIPTION") is not None else None,
            "location": str(c.get("LOCATION")) if c.get("LOCATION") is not None else None,
            "url": str(c.get("URL")) if c.get("URL") is not None else None,
            "priority": int(c.get("PRIORITY")) if c.get("PRIORITY") is not None else None,
            "status": str(c.get("STATUS")) if c.get("STATUS") is not None else None,
            "dtstart": when(c.get("DTSTART")), "due": when(c.get("DUE")), "dtend": when(c.get("DTEND")),
            "duration": when(c.get("DURATION")), "recurrence_id": when(c.get("RECURRENCE-ID")),
            "rrule": c.get("RRULE").to_ical().decode() if c.get("RRULE") is not None else None,
            "exdate": many(c, "EXDATE"), "rdate": many(c, "RDATE"),
            "categories": categories(c),
            "x_category": str(c.get("X-ASSISTANT-CATEGORY")) if c.get("X-ASSISTANT-CATEGORY") is not None else None,
            "related_to": str(related) if related is not None else None,
            "reltype": related.params.get("RELTYPE") if related is not None else None,
            "attendee": [str(a) for a in (c.get("ATTENDEE") if isinstance(c.get("ATTENDEE"), list) else [c.get("ATTENDEE")])] if c.get("ATTENDEE") is not None else [],
            "x_custom": str(c.get("X-CUSTOM-THING")) if c.get("X-CUSTOM-THING") is not None else None,
            "alarms": alarms,
        }
        components.append(item)
    print(json.dumps({"components": components, "timezones": zones}))


def write(path):
    cal = icalendar.Calendar()
    cal.add("prodid", "-//Other Client//EN")
    cal.add("version", "2.0")
    ev = icalendar.Event()
    ev.add("uid", "other-client-1@example.org")
    ev.add("summary", "Seminář; with \"quotes\", commas, and a \\ backslash")
    ev.add("dtstart", datetime(2026, 12, 7, 10, 0, tzinfo=icalendar.timezone.tzp.timezone("Europe/Prague")))
    ev.add("dtend", datetime(2026, 12, 7, 11, 30, tzinfo=icalendar.timezone.tzp.timezone("Europe/Prague")))
    ev.add("rrule", {"freq": "weekly", "count": 4})
    ev.add("attendee", "mailto:student@example.org")
    ev.add("x-custom-thing", "keep me")
    ev.add("dtstamp", datetime(2026, 11, 1, tzinfo=timezone.utc))
    cal.add_component(ev)
    moved = icalendar.Event()
    moved.add("uid", "other-client-1@example.org")
    moved.add("recurrence-id", datetime(2026, 12, 14, 10, 0, tzinfo=icalendar.timezone.tzp.timezone("Europe/Prague")))
    moved.add("summary", "Seminář (moved)")
    moved.add("dtstart", datetime(2026, 12, 15, 12, 0, tzinfo=icalendar.timezone.tzp.timezone("Europe/Prague")))
    moved.add("dtend", datetime(2026, 12, 15, 13, 30, tzinfo=icalendar.timezone.tzp.timezone("Europe/Prague")))
    moved.add("dtstamp", datetime(2026, 11, 1, tzinfo=timezone.utc))
    cal.add_component(moved)
    todo = icalendar.Todo()
    todo.add("uid", "other-client-2@example.org")
    todo.add("summary", "Odevzdat úkol")
    todo.add("due", date(2026, 12, 20))
    todo.add("categories", ["school", "homework"])
    todo.add("dtstamp", datetime(2026, 11, 1, tzinfo=timezone.utc))
    cal.add_component(todo)
    cal.add_missing_timezones()
    with open(path, "wb") as f:
        f.write(cal.to_ical())


if __name__ == "__main__":
    if sys.argv[1] == "--write":
        write(sys.argv[2])
    else:
        dump(sys.argv[1])
