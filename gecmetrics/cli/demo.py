"""``gecmetric demo``: score the sample corpus that ships with the package."""
from __future__ import annotations

from importlib import resources

import click

from ..output.formats import render
from ..output.tables import compare_corpus
from ..io.corpus import read_corpus
from ..metrics import GLEU, GREEN
from . import main
from .common import refuse_format
from .shared import chosen_format, format_options

SYSTEMS = ("system_a.txt", "system_b.txt", "source.txt")


def sample_folder() -> str:
    return str(resources.files("gecmetrics") / "data" / "sample")


@main.command()
@click.option("--path", "show_path", is_flag=True, help="Only print the folder of the sample files.")
@format_options(helps={"json": "Print JSON: columns (label, metric, signature), rows (system, scores, ranks) "
                              "and metrics (signature, settings), as compare.",
                       "markdown": "Print a Markdown table, then the sample folder and the same run as commands.",
                       "latex": "Print a LaTeX tabular (booktabs rules), then the sample folder and the same run "
                                "as commands."})
def demo(show_path):
    """Score the bundled sample corpus (8 sentences, 2 references; 2 systems and the source as a baseline) with GLEU+ and GREEN."""
    folder = sample_folder()
    if show_path:
        refuse_format("prints only the folder of the sample files", "--path")  # (the format was left unread)
        click.echo(folder)
        return
    paths = {name: f"{folder}/{name}" for name in ("source.txt", "ref0.txt", "ref1.txt", *SYSTEMS)}
    corpus = read_corpus(paths["source.txt"], [paths["ref0.txt"], paths["ref1.txt"]], [paths[s] for s in SYSTEMS])
    corpus.hypotheses = {name: corpus.hypotheses[paths[name]] for name in SYSTEMS}
    table = compare_corpus(corpus, [GLEU(), GREEN(beta=[0.5, 1, 2])])  # one counting pass for both metrics
    fmt = chosen_format("text")
    click.echo(render(table.as_table(), fmt, notes=False))
    if fmt in ("json", "tsv"):
        return
    click.echo(f"files: {folder}")
    click.echo(f"the same with the commands: cd {folder} && gecmetric gleu -s source.txt -r ref0.txt ref1.txt "
               f"-o {' '.join(SYSTEMS)} && gecmetric green -s source.txt -r ref0.txt ref1.txt "
               f"-c {' '.join(SYSTEMS)} -b 0.5 1 2")
