#!/usr/bin/env python3
"""Independent reference values for the logbook's night-time tests.

The sun's elevation comes from `astral` (PyPI astral==3.2, its own NOAA implementation, without
refraction); the great-circle interpolation and the one-minute sampling are written here from the
definitions in the logbook issue (sample the middle of each minute of block time; at the departure
airport before takeoff, at the arrival airport after landing, constant speed in between). Nothing
here calls the plugin. Airport coordinates are read from the bundled airport table.

    .venv/bin/pip install astral==3.2
    .venv/bin/python scripts/logbook/night-reference.py > Tests/LogbookTests/Fixtures/night_reference.json
"""
import datetime as dt
import json
import math
import os

from astral import Observer
from astral.sun import elevation

here = os.path.dirname(os.path.abspath(__file__))
airports = {}
with open(os.path.join(here, "..", "..", "Sources", "Plugins", "Logbook", "Airports", "AirportTable.swift"), encoding="utf-8") as f:
    for line in f:
        p = line.rstrip("\n").split("\t")
        if len(p) == 9:
            airports[p[0]] = (float(p[5]), float(p[6]))


def vec(lat, lon):
    la, lo = math.radians(lat), math.radians(lon)
    return (math.cos(la) * math.cos(lo), math.cos(la) * math.sin(lo), math.sin(la))


def point(a, b, f):
    va, vb = vec(*a), vec(*b)
    dot = max(-1.0, min(1.0, sum(x * y for x, y in zip(va, vb))))
    ang = math.acos(dot)
    if ang < 1e-9:
        return a
    s = math.sin(ang)
    v = [x * math.sin((1 - f) * ang) / s + y * math.sin(f * ang) / s for x, y in zip(va, vb)]
    return (math.degrees(math.atan2(v[2], math.hypot(v[0], v[1]))), math.degrees(math.atan2(v[1], v[0])))


def sun(lat, lon, t):
    return elevation(Observer(latitude=lat, longitude=lon), t, with_refraction=False)


def is_night(lat, lon, t, criterion):
    if criterion == "civil_twilight":
        return sun(lat, lon, t) <= -6
    if criterion == "sunset":
        return sun(lat, lon, t) <= -0.833
    return all(sun(lat, lon, t + dt.timedelta(minutes=m)) <= -0.833 for m in range(-60, 61, 10))


def parse(s):
    return dt.datetime.strptime(s, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc)


def leg(dep, arr, out, inn, off=None, on=None, criterion="civil_twilight"):
    a, b = airports[dep], airports[arr]
    t_out, t_in = parse(out), parse(inn)
    t_off, t_on = parse(off) if off else t_out, parse(on) if on else t_in
    night = 0
    minutes = int((t_in - t_out).total_seconds() // 60)
    for i in range(minutes):
        t = t_out + dt.timedelta(minutes=i, seconds=30)
        span = (t_on - t_off).total_seconds()
        f = 0.0 if t < t_off else 1.0 if t > t_on or span <= 0 else (t - t_off).total_seconds() / span
        lat, lon = point(a, b, f)
        if is_night(lat, lon, t, criterion):
            night += 1
    return {
        "dep": dep, "arr": arr, "out": out, "in": inn, "off": off, "on": on, "criterion": criterion,
        "night_min": night,
        "night_takeoff": is_night(a[0], a[1], t_off, criterion),
        "night_landing": is_night(b[0], b[1], t_on, criterion),
    }


legs = [
    leg("LKPR", "EGLL", "2026-01-15T15:00:00Z", "2026-01-15T17:05:00Z", "2026-01-15T15:12:00Z", "2026-01-15T16:55:00Z"),
    leg("EGLL", "KJFK", "2026-06-21T18:00:00Z", "2026-06-22T02:10:00Z", "2026-06-21T18:20:00Z", "2026-06-22T02:00:00Z"),
    leg("ENSB", "ENTC", "2026-12-15T10:00:00Z", "2026-12-15T11:40:00Z"),
    leg("ENSB", "ENTC", "2026-06-21T22:00:00Z", "2026-06-21T23:40:00Z"),
    leg("NZCH", "YSSY", "2026-07-01T05:00:00Z", "2026-07-01T08:30:00Z"),
    leg("VHHH", "YSSY", "2026-03-10T13:00:00Z", "2026-03-10T22:00:00Z"),
    leg("WSSS", "WIII", "2026-09-22T10:30:00Z", "2026-09-22T12:20:00Z"),
    leg("LKTB", "LKTB", "2026-10-01T16:30:00Z", "2026-10-01T17:45:00Z"),
    leg("LKPR", "LKTB", "2026-03-20T17:00:00Z", "2026-03-20T18:10:00Z", criterion="sunset"),
    leg("LKPR", "LKTB", "2026-03-20T17:00:00Z", "2026-03-20T19:40:00Z", criterion="sunset_plus_1h"),
    leg("PANC", "RJAA", "2026-02-01T20:00:00Z", "2026-02-02T04:30:00Z"),
]
print(json.dumps({"source": "scripts/logbook/night-reference.py (astral 3.2, no refraction)", "legs": legs}, indent=1))
