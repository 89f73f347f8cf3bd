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


def rfc5545_instances(dtstart, matches, count):
    """RFC 5545, section 3.3.10: "The COUNT rule part defines the number of occurrences at which
    to range-bound the recurrence. The DTSTART property value always counts as the first
    occurrence." dateutil leaves a DTSTART that is not on the rule out of the set; the RFC keeps
    it as instance 1, and the rule's matches fill instances 2 to COUNT. `matches` are dateutil's
    (with the rule's COUNT), in order; this is the set the plugin must produce."""
    if matches and matches[0] == dtstart:
        return matches[:count] if count else matches
    instances = [dtstart] + matches
    return instances[:count] if count else instances


def off_rule_templates(rnd):
    """Rule families whose DTSTART can miss the rule: a weekday BYDAY excludes, the 1st for
    BYMONTHDAY=-1, a Thursday for a last-Friday rule, a month BYMONTH leaves out, and so on."""
    d = lambda: rnd.choice(DAYS)
    return [
        lambda: f"FREQ=DAILY;BYDAY={d()},{d()}",
        lambda: "FREQ=DAILY;BYDAY=SA,SU",
        lambda: f"FREQ=DAILY;BYMONTH={rnd.randint(1, 12)}",
        lambda: f"FREQ=WEEKLY;BYDAY={d()},{d()}",
        lambda: f"FREQ=WEEKLY;INTERVAL=2;BYDAY={d()},{d()};WKST=SU",
        lambda: "FREQ=MONTHLY;BYMONTHDAY=-1",
        lambda: f"FREQ=MONTHLY;BYMONTHDAY={rnd.choice([10, 15, 28])}",
        lambda: f"FREQ=MONTHLY;BYDAY=-1{d()}",
        lambda: f"FREQ=MONTHLY;BYDAY={rnd.choice(['1', '2', '3'])}{d()}",
        lambda: "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
        lambda: f"FREQ=YEARLY;BYMONTH={rnd.randint(1, 12)};BYMONTHDAY={rnd.choice(['1', '-1', '15'])}",
        lambda: f"FREQ=YEARLY;BYYEARDAY={rnd.choice(['100', '-1', '200'])}",
        lambda: f"FREQ=YEARLY;BYWEEKNO={rnd.choice(['10', '30', '-1'])};BYDAY={d()}",
    ]


def off_rule_case(rnd, n):
    """A rule with DTSTART off it: the expected set is dateutil's with the RFC's DTSTART rule."""
    tz = ZONES[n % len(ZONES)]
    all_day = n % 7 == 3
    rule = rnd.choice(off_rule_templates(rnd))()
    day = date(2024, 1, 1) + timedelta(days=rnd.randint(0, 1100))
    clock = time(0, 0) if all_day else rnd.choice(TIMES)
    for _ in range(40):
        start = datetime.combine(day, clock)
        probe = rrulestr("RRULE:" + rule, dtstart=aware(start, None if all_day else tz))
        first = next(iter(probe), None)
        if first is None:
            return None
        if first.replace(tzinfo=None) != start:
            break
        day += timedelta(days=1)
    else:
        return None
    ending = rnd.choice(["count", "count", "until", ""])
    count = None
    if ending == "count":
        count = rnd.randint(1, 30)
        rule += f";COUNT={count}"
    elif ending == "until":
        until_wall = start + timedelta(days=rnd.randint(10, 700))
        if all_day:
            rule += f";UNTIL={until_wall.strftime('%Y%m%d')}"
        else:
            rule += f";UNTIL={aware(until_wall, tz).astimezone(timezone.utc).strftime('%Y%m%dT%H%M%SZ')}"
    before = start + timedelta(days=3 * 366)
    dtstart = aware(start, None if all_day else tz)
    matches = []
    for o in rrulestr("RRULE:" + rule, dtstart=dtstart):
        if o.replace(tzinfo=None) >= before:
            break
        matches.append(o)
    expected = [fmt(o, all_day) for o in rfc5545_instances(dtstart, matches, count)]
    wallfmt = "%Y-%m-%d" if all_day else "%Y-%m-%dT%H:%M:%S"
    return {
        "tz": tz, "all_day": all_day, "rrule": rule, "dtstart": start.strftime(wallfmt), "before": before.strftime(wallfmt),
        "exdates": [], "rdates": [], "expected": expected,
    }


def generate(make, count, seed):
    """`count` cases from `make(rnd, n)`, which may decline a draw (None)."""
    rnd = random.Random(seed)
    cases, n = [], 0
    while len(cases) < count:
        c = make(rnd, n)
        n += 1
        if c is not None:
            cases.append(c)
    return cases


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--off-rule":
        json.dump(generate(off_rule_case, int(sys.argv[2]) if len(sys.argv) > 2 else 240, 3310), sys.stdout)
        return
    cases = generate(case, int(sys.argv[1]) if len(sys.argv) > 1 else 320, 5545)
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
