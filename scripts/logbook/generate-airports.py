#!/usr/bin/env python3
"""Regenerates Sources/Plugins/Logbook/Resources/airports.tsv from the PyPI package
`airportsdata` (MIT licence, https://github.com/mborsetti/airportsdata).

    python3 -m venv /tmp/ap && /tmp/ap/bin/pip install airportsdata==20250909
    /tmp/ap/bin/python scripts/logbook/generate-airports.py

Columns: icao, iata, name, city, country, latitude, longitude, elevation_ft, tz.
"""
import os
import sys

import airportsdata

here = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(here, "..", "..", "Sources", "Plugins", "Logbook", "Resources", "airports.tsv")


def clean(text):
    return (text or "").replace("\t", " ").replace("\n", " ").strip()


airports = airportsdata.load("ICAO")
rows = []
for icao, a in sorted(airports.items()):
    if not a.get("tz"):
        continue
    rows.append("\t".join([
        clean(icao), clean(a.get("iata")), clean(a.get("name")), clean(a.get("city")), clean(a.get("country")),
        "%.6f" % float(a["lat"]), "%.6f" % float(a["lon"]), str(int(round(float(a.get("elevation") or 0)))),
        clean(a["tz"]),
    ]))
with open(out, "w", encoding="utf-8") as f:
    f.write("# airportsdata %s (MIT licence); regenerate with scripts/logbook/generate-airports.py\n"
            % getattr(airportsdata, "__version__", "?"))
    f.write("\n".join(rows) + "\n")
print("%d airports -> %s" % (len(rows), os.path.normpath(out)), file=sys.stderr)
