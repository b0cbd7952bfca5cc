#!/usr/bin/env python3
"""Self-test of tools/results_tables.py on the fixtures beside this file (CTest: docs.results_tables_selftest).

fixtures/results/ holds four small CSVs and an experiments/ folder; fixtures/page.md holds the table
"demo" as the script must generate it from them. It proves:
  (a) a newer CSV's row wins over an older one: by the date in the name (scan: 2026-01-02 over
      2026-01-01), then by the time of the "# gpu:" line (partition: _a at 23:00 over _b at 08:00,
      although _b's name sorts later); a row with ok = 0 is not a result (compact: from 2026-01-01,
      in the format before the fastest_library column); another GPU kind is not read (h200);
  (b) experiments/ is ignored (it holds the newest, fastest rows of all);
  (c) a stale committed block makes --check exit 1 with a diff, and --write repairs it;
  (d) an unknown block name exits 2, naming the file and line;
  and a row that no CSV holds, or unbalanced markers, exit 2; a page without blocks passes.
Run: python3 tests/docs/results_tables_selftest.py (exit 0: passed).
"""

import contextlib
import importlib.util
import io
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "tools", "results_tables.py")
FIXTURES = os.path.join(HERE, "fixtures")

sys.dont_write_bytecode = True  # no __pycache__ in tools/
spec = importlib.util.spec_from_file_location("results_tables", SCRIPT)
rt = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rt)

TABLES = {
    "demo": rt.Table("h100", rt.STANDARD, [
        rt.R("exclusive scan", "scan", "single_pass", 2 ** 28),
        rt.R("compaction, keep 50%", "compact", "single_pass", 2 ** 28, "50"),
        rt.R("partition", "partition", "single_pass", 2 ** 28, "50"),
    ]),
    "missing": rt.Table("h100", rt.STANDARD, [rt.R("a row no CSV holds", "scan", "nothing", 2 ** 28)]),
}

failures = []


def run(*argv, results, tables=TABLES):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = rt.main(list(argv) + ["--results", results], tables=tables,
                           root=os.path.dirname(results))
        except SystemExit as e:  # argparse
            code = e.code
    return code, out.getvalue(), err.getvalue()


def expect(what, condition, detail=""):
    print("{}: {}".format("ok  " if condition else "FAIL", what))
    if not condition:
        failures.append(what)
        if detail:
            print("     " + detail.replace("\n", "\n     "))


with tempfile.TemporaryDirectory() as tmp:
    # A copy of the fixtures, so that the pages' relative links stay what they are in the tree.
    fx = os.path.join(tmp, "fixtures")
    shutil.copytree(FIXTURES, fx)
    results, page = os.path.join(fx, "results"), os.path.join(fx, "page.md")
    with open(page, encoding="utf-8") as f:
        committed = f.read()
    block = committed.split("<!-- results:begin demo -->")[1].split("<!-- results:end -->")[0]

    code, out, err = run("--check", page, results=results)
    expect("(a)(b) the committed fixture page is current: --check exits 0", code == 0, out + err)
    expect("(a) scan from the newer date: 0.750 ms against thrust 0.900, 1.20x, from _b",
           "| single_pass 0.750 | thrust 0.900 | 1.20× |" in block
           and "[h100_2026-01-02_b.csv](results/h100_2026-01-02_b.csv)" in committed)
    expect("(a) partition from the later '# gpu:' time of the same date (_a), not the later name (_b)",
           "| single_pass 0.800 | cub 1.000 | 1.25× |" in block and "h100_2026-01-02_a.csv" in block)
    expect("(a) a row with ok = 0 is skipped: compaction from 2026-01-01, the older format",
           "| single_pass 1.000 | cub 0.800 | 0.80× |" in block and "h100_2026-01-01.csv" in block)
    expect("(b) experiments/ and other GPU kinds are not read",
           "experiments" not in block and "h200" not in block and "0.0100" not in block)

    code, out, err = run("--used-files", results=results, tables={"demo": TABLES["demo"]})
    expect("--used-files lists the CSVs the tables draw on", code == 0 and out.split() == [
        "results/h100_2026-01-01.csv", "results/h100_2026-01-02_a.csv", "results/h100_2026-01-02_b.csv"],
        out + err)

    # (c) a stale block: --check exits 1 with a unified diff; --write repairs it.
    with open(page, "w", encoding="utf-8") as f:
        f.write(committed.replace("| single_pass 0.750 |", "| single_pass 0.700 |"))
    code, out, err = run("--check", page, results=results)
    expect("(c) a stale block: --check exits 1", code == 1, out + err)
    expect("(c) ... and prints a unified diff", "-| exclusive scan" in out and "+| exclusive scan" in out, out)
    code, out, err = run("--write", page, results=results)
    with open(page, encoding="utf-8") as f:
        expect("(c) --write restores the generated block", code == 0 and f.read() == committed, out + err)
    code, out, err = run("--check", page, results=results)
    expect("(c) ... after which --check exits 0", code == 0, out + err)

    # (d) an unknown block name, a missing row, unbalanced markers: exit 2, naming file and line.
    def page_with(name, text):
        path = os.path.join(fx, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    unknown = page_with("unknown.md", "# t\n\n<!-- results:begin nope -->\n<!-- results:end -->\n")
    code, out, err = run("--check", unknown, results=results)
    expect("(d) an unknown block name exits 2 naming the file and line",
           code == 2 and "unknown.md:3" in err and "'nope'" in err, err)
    missing = page_with("missing.md", "<!-- results:begin missing -->\n<!-- results:end -->\n")
    code, out, err = run("--write", missing, results=results)
    expect("a row no CSV holds exits 2 naming the table and the row",
           code == 2 and "'missing'" in err and "a row no CSV holds" in err and "implementation=nothing" in err,
           err)
    unclosed = page_with("unclosed.md", "<!-- results:begin demo -->\n")
    code, out, err = run("--check", unclosed, results=results)
    expect("a block without results:end exits 2", code == 2 and "unclosed.md:1" in err, err)
    plain = page_with("plain.md", "no blocks here\n")
    code, out, err = run("--check", plain, results=results)
    expect("a page without blocks passes --check", code == 0, out + err)

print("{} of the checks failed".format(len(failures)) if failures else "all checks passed")
sys.exit(1 if failures else 0)
