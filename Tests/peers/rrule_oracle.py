"""Independent recurrence oracle for the Tasks plugin's tests: python-dateutil's rrule.

Generates a fixed, seeded set of RFC 5545 rules (every part the plugin supports, COUNT and UNTIL,
EXDATE and RDATE, DST changes in three zones, leap days and spring-forward gaps) and prints, as
JSON, each rule with the occurrences dateutil computes. The test expands the same rules with the
plugin and compares every occurrence. dateutil shares no code with libical.
"""
import json
import random
import sys
from datetime import date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

from dateutil.rrule import rrulestr, rruleset

ZONES = ["Europe/Prague", "America/New_York", "Pacific/Auckland", "UTC"]
TIMES = [time(9, 0), time(2, 30), time(1, 30), time(23, 45), time(0, 0), time(12, 15, 30)]
DAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]


def templates(rnd):
    d = lambda: rnd.choice(DAYS)
    return [
        lambda: "FREQ=DAILY",
        lambda: f"FREQ=DAILY;INTERVAL={rnd.randint(2, 10)}",
        lambda: f"FREQ=DAILY;BYMONTH={rnd.randint(1, 12)},{rnd.randint(1, 12)}",
        lambda: f"FREQ=DAILY;BYDAY={d()},{d()}",
        lambda: "FREQ=WEEKLY",
        lambda: f"FREQ=WEEKLY;INTERVAL={rnd.randint(2, 4)};BYDAY={d()},{d()},{d()}",
        lambda: f"FREQ=WEEKLY;INTERVAL=2;BYDAY={d()},{d()};WKST={d()}",
        lambda: f"FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
        lambda: "FREQ=MONTHLY",
        lambda: f"FREQ=MONTHLY;BYMONTHDAY={rnd.choice([1, 15, 28, 29, 30, 31])}",
        lambda: f"FREQ=MONTHLY;BYMONTHDAY=-{rnd.randint(1, 7)}",
        lambda: f"FREQ=MONTHLY;BYMONTHDAY=1,-1",
        lambda: f"FREQ=MONTHLY;BYDAY={rnd.choice(['1', '2', '3', '4', '-1', '-2', '+1'])}{d()}",
        lambda: f"FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
        lambda: f"FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS={rnd.choice(['1', '2', '-2', '1,-1'])}",
        lambda: f"FREQ=MONTHLY;INTERVAL={rnd.randint(2, 6)};BYDAY={d()};BYSETPOS={rnd.choice(['1', '2', '-1'])}",
        lambda: f"FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13",
        lambda: "FREQ=YEARLY",
        lambda: f"FREQ=YEARLY;BYMONTH={rnd.randint(1, 12)};BYDAY={rnd.choice(['1', '2', '-1', '4'])}{d()}",
        lambda: f"FREQ=YEARLY;BYYEARDAY={rnd.choice(['1', '100', '-1', '60', '366', '1,-1'])}",
        lambda: f"FREQ=YEARLY;BYWEEKNO={rnd.choice(['1', '20', '-1', '52', '53'])};BYDAY={d()}",
        lambda: f"FREQ=YEARLY;BYWEEKNO={rnd.randint(1, 52)};WKST={d()};BYDAY={d()},{d()}",
        lambda: f"FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29",
        lambda: f"FREQ=YEARLY;BYMONTH={rnd.randint(1, 12)};BYMONTHDAY={rnd.choice(['1', '-1', '15'])}",
        lambda: f"FREQ=YEARLY;BYMONTH=3,10;BYDAY=-1SU",
        lambda: f"FREQ=YEARLY;BYMONTH=11;BYDAY=TH;BYSETPOS=4",
    ]


def aware(wall, tz):
    return wall.replace(tzinfo=ZoneInfo(tz)) if tz else wall


def fmt(value, all_day):
    if all_day:
        return value.strftime("%Y-%m-%d")
    return value.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def case(rnd, n):
    tz = ZONES[n % len(ZONES)]
    all_day = n % 9 == 4
    rule = rnd.choice(templates(rnd))()
    seed = date(2024, 1, 1) + timedelta(days=rnd.randint(0, 1100))
    wall = datetime.combine(seed, time(0, 0) if all_day else rnd.choice(TIMES))
    probe = rrulestr("RRULE:" + rule, dtstart=aware(wall, None if all_day else tz))
    first = next(iter(probe), None)
    if first is None:
        return None
    start = first.replace(tzinfo=None)
    ending = rnd.choice(["", "", "count", "until"])
    if ending == "count":
        rule += f";COUNT={rnd.randint(1, 40)}"
    elif ending == "until":
        until_wall = start + timedelta(days=rnd.randint(10, 700))
        if all_day:
            rule += f";UNTIL={until_wall.strftime('%Y%m%d')}"
        else:
            until = aware(until_wall, tz).astimezone(timezone.utc)
            rule += f";UNTIL={until.strftime('%Y%m%dT%H%M%SZ')}"
    before = start + timedelta(days=3 * 366)
    main = rrulestr("RRULE:" + rule, dtstart=aware(start, None if all_day else tz))
    occurrences = []
    for o in main:
        if o.replace(tzinfo=None) >= before:
            break
        occurrences.append(o)
    exdates, rdates = [], []
    if occurrences and n % 3 == 0:
        exdates = sorted({rnd.choice(occurrences) for _ in range(rnd.randint(1, 2))})
    if n % 4 == 1:
        rdates = sorted({aware(start + timedelta(days=rnd.randint(1, 400), hours=0 if all_day else rnd.choice([0, 5])), None if all_day else tz)
                         for _ in range(rnd.randint(1, 2))})
    s = rruleset()
    s.rrule(main)
    for x in exdates:
        s.exdate(x)
    for r in rdates:
        s.rdate(r)
    expected = []
    for o in s:
        if o.replace(tzinfo=None) >= before:
            break
        expected.append(fmt(o, all_day))
    wallfmt = "%Y-%m-%d" if all_day else "%Y-%m-%dT%H:%M:%S"
    return {
        "tz": tz, "all_day": all_day, "rrule": rule,
        "dtstart": start.strftime(wallfmt), "before": before.strftime(wallfmt),
        "exdates": [x.replace(tzinfo=None).strftime(wallfmt) for x in exdates],
        "rdates": [x.replace(tzinfo=None).strftime(wallfmt) for x in rdates],
        "expected": expected,
    }


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 320
    rnd = random.Random(5545)
    cases, n = [], 0
    while len(cases) < count:
        c = case(rnd, n)
        n += 1
        if c is not None:
            cases.append(c)
    # Spring-forward gaps and repeated hours, written out so they are always in the set.
    fixed = [
        ("Europe/Prague", "2026-03-27T02:30:00", "FREQ=DAILY;COUNT=5"),
        ("America/New_York", "2026-03-06T02:15:00", "FREQ=DAILY;COUNT=4"),
        ("Pacific/Auckland", "2026-09-25T02:30:00", "FREQ=DAILY;COUNT=5"),
        ("Europe/Prague", "2026-10-23T02:30:00", "FREQ=DAILY;COUNT=4"),
        ("America/New_York", "2026-10-30T01:30:00", "FREQ=DAILY;COUNT=4"),
        ("Europe/Prague", "2024-02-29T09:00:00", "FREQ=YEARLY;COUNT=3"),
        ("Europe/Prague", "2024-01-31T09:00:00", "FREQ=MONTHLY;COUNT=8"),
    ]
    for tz, start, rule in fixed:
        wall = datetime.fromisoformat(start)
        before = wall + timedelta(days=10 * 366)
        expected = [fmt(o, False) for o in rrulestr("RRULE:" + rule, dtstart=aware(wall, tz)) if o.replace(tzinfo=None) < before]
        cases.append({"tz": tz, "all_day": False, "rrule": rule, "dtstart": start,
                      "before": before.strftime("%Y-%m-%dT%H:%M:%S"),
                      "exdates": [], "rdates": [], "expected": expected})
    json.dump(cases, sys.stdout)


if __name__ == "__main__":
    main()
