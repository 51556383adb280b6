#!/usr/bin/env python3
"""Names from the deck reach the outputs intact: an instance named "Blk,2" (a comma, quoted in the
deck, also in a data line's "Blk,2".Bottom) and a surface named with a Latin-1 byte. The pairs CSV
quotes the comma (RFC 4180: every row then has the header's field count) and the JSON stays valid
(the byte that starts no UTF-8 sequence is written as its Latin-1 character).
Usage: check_names_in_outputs.py CONTACT-SEARCH cae_blocks.inp WORKDIR"""
import csv
import json
import os
import shutil
import subprocess
import sys


def main(tool, deck, work):
    work = os.path.abspath(os.path.join(work, "names_in_outputs"))
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    with open(deck, "rb") as f:
        text = f.read()
    for old, new in ((b"*Instance, name=Block-2, part=Block", b'*Instance, name="Blk,2", part=Block'),
                     (b"Block-2.Bottom, Contact-Top", b'"Blk,2".Bottom, "Top\xe9"'),
                     (b"*Surface, type=ELEMENT, name=Contact-Top",
                      b'*Surface, type=ELEMENT, name="Top\xe9"')):
        assert old in text, old
        text = text.replace(old, new)
    model = os.path.join(work, "names.inp")
    with open(model, "wb") as f:
        f.write(text)
    pairs = os.path.join(work, "pairs.csv")
    report = os.path.join(work, "report.json")
    r = subprocess.run([tool, model, "--mode", "node", "--quiet", "--pairs", pairs, "--json", report,
                        "--json-pairs"], capture_output=True)
    failures = []
    if r.returncode != 0:
        failures.append("exit %d: %s" % (r.returncode, r.stderr.decode(errors="replace")))
    else:
        with open(pairs, newline="") as f:
            rows = list(csv.reader(f))
        widths = {len(row) for row in rows}
        if widths != {len(rows[0])}:
            failures.append("CSV rows of %s fields" % sorted(widths))
        if not any(row[2].startswith("Blk,2.") for row in rows[1:]):
            failures.append("no master element named Blk,2.<id> in the CSV")
        with open(report, "rb") as f:
            raw = f.read()
        try:
            doc = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            failures.append("the JSON does not parse: %s" % e)
        else:
            masters = [i.get("master") for i in doc["interfaces"]]
            if "Top\u00e9" not in masters:
                failures.append("master names in the JSON: %r" % masters)
    for f in failures:
        print("FAILED: " + f)
    print("names in outputs: " + ("FAILED" if failures else "OK"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
