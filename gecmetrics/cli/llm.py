"""``gecmetric llm``: LLM-S / LLM-E (Kobayashi et al., BEA 2024) of system outputs, with a dry run."""
from __future__ import annotations

import click

from ..errors import InputError
from . import main
from .common import digits_option, echo_json
from .context import in_run, remember_cache
from .options import GreedyCommand, GreedyOption

VARIANTS = {"s": "llm-s", "e": "llm-e"}


@main.command(cls=GreedyCommand)
@click.option("-s", "--source", required=True, metavar="FILE", help="The source sentences, one per line.")
@click.option("-o", "--hypothesis", "hypotheses", cls=GreedyOption, required=True,
              help="System output files: scored together (a prompt shows up to 5 systems' hypotheses).")
@click.option("-r", "--reference", "references", cls=GreedyOption,
              help="Accepted and not read: LLM-S and LLM-E are reference-free.")
@click.option("--model", required=True, metavar="PROVIDER:MODEL",
              help="openai:gpt-4o-mini-2024-07-18, gemini:MODEL, vllm:MODEL, llamacpp:any, ollama:MODEL, "
                   "openai-compatible:MODEL (with --base-url) or transformers:FOLDER (a local model).")
@click.option("--variant", type=click.Choice(list(VARIANTS)), default="s", show_default=True,
              help="s: the hypotheses are shown as sentences (LLM-S); e: as their ERRANT edits (LLM-E).")
@click.option("--criterion", help="A criterion prompt: grammaticality, fluency, meaning (s); difficulty, impact (e).")
@click.option("--grouping", type=click.Choice(["all", "gec-metrics"]), default="all", show_default=True,
              help="all: every distinct hypothesis scored, 5 a prompt; gec-metrics: its one prompt per source.")
@click.option("--base-url", metavar="URL", help="The server's URL (default: the provider's).")
@click.option("--max-requests", type=click.IntRange(0), help="Send at most this many requests (then stop cleanly).")
@click.option("--answer-retries", type=click.IntRange(0), help="Times a bad answer is asked again [default: 2].")
@click.option("--concurrency", type=click.IntRange(1), help="HTTP requests in flight [default: 4].")
@click.option("--rpm", "requests_per_minute", type=click.FloatRange(0, min_open=True), help="Requests per minute.")
@click.option("--max-retry-after", type=click.FloatRange(0, 86400), metavar="SECONDS",
              help="The longest Retry-After wait honoured; a server asking for longer stops the run [default: 120].")
@click.option("--device", help="Local model: cpu, cuda, cuda:1, mps [default: cpu].")
@click.option("--dtype", type=click.Choice(["auto", "float32", "float16", "bfloat16"]), help="Local model dtype.")
@click.option("--batch-size", type=click.IntRange(1), help="Local model: prompts decoded together [default: 8].")
@click.option("--spacy-model", help="LLM-E: the spaCy model of the ERRANT annotator [default: $GECMETRICS_SPACY_MODEL, "
                                    "else en_core_web_sm].")
@click.option("--dry-run", is_flag=True, help="Print the prompts to send, their tokens and cost; send nothing.")
@click.option("--price-in", type=click.FloatRange(0), help="Dry run: price of a million prompt tokens.")
@click.option("--price-out", type=click.FloatRange(0), help="Dry run: price of a million answer tokens.")
@click.option("--cache", "cache_folder", metavar="DIR", help="The answer cache's folder [default: the user cache].")
@click.option("--no-cache", is_flag=True, help="Neither read nor store answers.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: scores, counts, settings, signature, report.")
@digits_option(4, "Decimals of the mean scores (rounded half up).")
def llm(source, hypotheses, references, model, variant, criterion, grouping, base_url, max_requests, answer_retries,
        concurrency, requests_per_minute, max_retry_after, device, dtype, batch_size, spacy_model, dry_run, price_in,
        price_out, cache_folder, no_cache, as_json, digits):
    """Score systems with an LLM judge: each hypothesis gets 1-5, a system the mean over its
    sentences. Answers are cached: a second run sends nothing, an interrupted one resumes.

    \b
    gecmetric llm -s INPUT -o AMU CAMB CUUI --model openai:gpt-4o-mini --dry-run --price-in 0.15 --price-out 0.6
    gecmetric llm -s INPUT -o AMU CAMB CUUI --model vllm:Qwen/Qwen2.5-7B-Instruct --variant e
    gecmetric llm -s INPUT -o AMU CAMB CUUI --model transformers:/models/llama --device cuda --dtype bfloat16
    """
    from ..core.table import Table, round_half_up
    from ..io.corpus import read_corpus
    from ..metrics.llm.metric import judge_corpus
    from ..metrics.registry import get_metric

    if (price_in is None) != (price_out is None):
        raise InputError("give both --price-in and --price-out (per million tokens)")
    if (price_in is not None) and not dry_run:
        raise InputError("--price-in and --price-out go with --dry-run")
    remember_cache(cache_folder, no_cache)
    given = {"model": model, "criterion": criterion, "grouping": grouping, "base_url": base_url,
             "max_requests": max_requests, "answer_retries": answer_retries, "concurrency": concurrency,
             "requests_per_minute": requests_per_minute, "max_retry_after": max_retry_after, "device": device,
             "dtype": dtype, "batch_size": batch_size,
             "spacy_model": spacy_model}
    if spacy_model is not None and variant != "e":
        raise InputError("--spacy-model is for --variant e (LLM-E's ERRANT edits)")
    metric = in_run(get_metric(VARIANTS[variant], **{k: v for k, v in given.items() if v is not None}))
    corpus = read_corpus(source, [], hypotheses)
    if dry_run:
        estimate = metric.dry_run(corpus, None if price_in is None else (price_in, price_out))
        if as_json:
            echo_json(vars(estimate))
        else:
            click.echo(estimate.summary())
        return
    judged = judge_corpus(metric, corpus)
    if as_json:
        echo_json(judged.to_dict())
    else:
        rows = [[name, round_half_up(r.score, digits), str(r.scored), str(r.unscored)]
                for name, r in judged.results.items()]
        click.echo(Table(["system", metric.label, "scored", "unscored"], rows).render("tsv"))
    click.echo(judged.report.summary(), err=True)
    unscored = sum(r.unscored for r in judged.results.values())
    if unscored:
        click.echo(f"gecmetric llm: {unscored} (sentence, system) pairs have no score; each system's mean is over "
                   "its scored sentences" + (" (grouping gec-metrics scores 5 hypotheses a source)"
                                             if grouping == "gec-metrics" else ""), err=True)
