#!/ usr / bin / env python3
""
    "What `cutevis names` makes of a set of kernel files: per file, how many declarations resolve,
    and why the others do not(grouped by the first words of their error)
                    .

                tests /
                bench / names_survey.py build / bin /
                cutevis FILE...[-- -D NAME = VALUE...]

                Every file gets the same -
            D.Only runs cutevis; the files are whatever you point it at
(issue 13's survey ran it over CUTLASS's tutorials, collectives, epilogues and unit tests)."""
import collections
import json
import re
import subprocess
import sys


def reason(entry):
    error = re.sub(r"^\S+:\d+:\d+ \([^)]*\): ", "", entry["error"])  # the declaration it failed through
    if entry.get("needs"):
        return "needs -D"
    m = re.match(r"unknown function '([^']*)'", error)
    if m:
        return "unknown function " + m.group(1)
    if "reads a data member" in error:
        return "run-time data member"
    return re.sub(r"'[^']*'", "'…'", error)[:60]


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    cutevis, rest = argv[1], argv[2:]
    files, defines = (rest[:rest.index("--")], rest[rest.index("--") + 1:]) if "--" in rest else (rest, [])
    total = collections.Counter()
    reasons = collections.Counter()
    for path in files:
        r = subprocess.run([cutevis, "names", "--json", "--from", path] + defines, capture_output=True, text=True)
        if r.returncode != 0:
            print(f"{path}: exit {r.returncode}: {r.stderr.strip()[:200]}")
            continue
        names = json.loads(r.stdout)["names"]
        resolved = sum(n["kind"] != "unresolved" for n in names)
        total["found"] += len(names)
        total["resolved"] += resolved
        per_file = collections.Counter(reason(n) for n in names if n["kind"] == "unresolved")
        reasons.update(per_file)
        top = "; ".join(f"{k} {v}" for k, v in per_file.most_common(4))
        print(f"{path}: {resolved}/{len(names)} resolved" + (f" ({top})" if top else ""))
    print(f"total: {total['resolved']}/{total['found']} resolved")
    for k, v in reasons.most_common(25):
        print(f"  {v:5d}  {k}")


if __name__ == "__main__":
    main(sys.argv)
