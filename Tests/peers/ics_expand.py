"""Expands every recurring VEVENT/VTODO of an .ics file as python-dateutil reads it (icalendar to
parse, dateutil's rruleset for RRULE, RDATE and EXDATE: a DTSTART that is not on its rule is left
out, as dateutil does) and prints {uid: [UTC instants or dates]} as JSON, up to BEFORE.

    ics_expand.py FILE BEFORE     (BEFORE: YYYY-MM-DD)
"""
import json
import sys
from datetime import date, datetime, timezone

from dateutil.rrule import rruleset, rrulestr
from icalendar import Calendar


def instant(value):
    if isinstance(value, datetime):
        return value.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return value.strftime("%Y-%m-%d")


def main():
    path, before = sys.argv[1], date.fromisoformat(sys.argv[2])
    calendar = Calendar.from_ical(open(path, "rb").read())
    out = {}
    for component in calendar.walk():
        if component.name not in ("VEVENT", "VTODO") or "RRULE" not in component:
            continue
        start = component["DTSTART"].dt
        rules = rruleset()
        rules.rrule(rrulestr(component["RRULE"].to_ical().decode(), dtstart=start))
        for key, add in (("RDATE", rules.rdate), ("EXDATE", rules.exdate)):
            values = component.get(key, [])
            for prop in values if isinstance(values, list) else [values]:
                for d in prop.dts:
                    add(d.dt)
        limit = datetime.combine(before, datetime.min.time())
        instances = []
        for o in rules:
            naive = o.replace(tzinfo=None) if isinstance(o, datetime) else datetime.combine(o, datetime.min.time())
            if naive >= limit:
                break
            instances.append(instant(o))
        out[str(component["UID"])] = instances
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
