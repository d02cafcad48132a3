"""``gecmetric demo``: score the sample corpus that ships with the package."""
from __future__ import annotations

from importlib import resources

import click

from ..corpus import read_corpus
from ..metrics import GLEU, GREEN
from ..report import percent, table
from . import main

SYSTEMS = ("system_a.txt", "system_b.txt", "source.txt")


def sample_folder() -> str:
    return str(resources.files("gecmetrics") / "data" / "sample")


@main.command()
@click.option("--path", "show_path", is_flag=True, help="Only print the folder of the sample files.")
def demo(show_path):
    """Score the bundled sample corpus (8 sentences, 2 references, 2 systems) with GLEU+ and GREEN."""
    folder = sample_folder()
    if show_path:
        click.echo(folder)
        return
    paths = {name: f"{folder}/{name}" for name in ("source.txt", "ref0.txt", "ref1.txt", *SYSTEMS)}
    corpus = read_corpus(paths["source.txt"], [paths["ref0.txt"], paths["ref1.txt"]], [paths[s] for s in SYSTEMS])
    gleu = GLEU(fix_seed=True)
    green = GREEN(beta=[0.5, 1, 2])
    encoded = gleu.encode(corpus.sources, corpus.references)  # one counting pass for both metrics
    rows = []
    for name in SYSTEMS:
        hypothesis = corpus.hypotheses[paths[name]]
        green_scores = green.corpus_score(None, None, hypothesis, encoded).scores
        rows.append([name, percent(gleu.corpus_score(None, None, hypothesis, encoded).score, 2),
                     *[percent(x, 2) for x in green_scores]])
    click.echo(table(["system", "GLEU+ (-f)", "GREEN b0.5", "GREEN b1", "GREEN b2"], rows))
    click.echo(f"files: {folder}")
    click.echo(f"the same with the commands: cd {folder} && gecmetric gleu -s source.txt -r ref0.txt ref1.txt "
               f"-o {' '.join(SYSTEMS)} -f && gecmetric green -s source.txt -r ref0.txt ref1.txt "
               f"-c {' '.join(SYSTEMS)} -b 0.5 1 2")
