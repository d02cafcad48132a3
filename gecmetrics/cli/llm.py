"""``gecmetric llm``: LLM-S / LLM-E (Kobayashi et al., BEA 2024), with a dry run; ``llm-s``/``llm-e``: ``--variant``."""
from __future__ import annotations

import click

from ..errors import InputError
from ..metrics.results import scores_signature
from . import main
from .common import check_scale, corpus_files
from .inputs import corpus_options
from .numbers import FloatRange, IntRange
from .options import GreedyCommand
from .shared import (SENTENCE_HELP, chosen_format, digits_option, format_options, run_options, scale_option,
                     signature_option)
from .context import in_run
from . import llm_run

VARIANTS = {"s": "llm-s", "e": "llm-e"}
SETTINGS = ("model", "criterion", "grouping", "base_url", "api_key_env", "max_requests", "answer_retries",
            "structured", "temperature", "concurrency", "requests_per_minute", "max_retry_after", "timeout", "max_retries", "device", "dtype",
            "batch_size", "spacy_model")
NOT_ESTIMATED = {"--concurrency": "concurrency", "--rpm": "requests_per_minute", "--answer-retries": "answer_retries",
                 "--max-retry-after": "max_retry_after", "--device": "device", "--batch-size": "batch_size",
                 "--api-key-env": "api_key_env", "--timeout": "timeout", "--max-retries": "max_retries"}
"""How requests are sent (with which key), asked again or decoded: nothing a dry run does (it sends nothing, counts
tokens with the tokenizer alone). --dtype is in a local model's answers' cache key: it changes what is found cached."""


@main.command(cls=GreedyCommand)
@corpus_options(references=False)
@click.option("--model", required=True, metavar="PROVIDER:MODEL",
              help="openai:gpt-4o-mini-2024-07-18, gemini:MODEL, vllm:MODEL, llamacpp:any, ollama:MODEL, "
                   "openai-compatible:MODEL (with --base-url) or transformers:FOLDER (a local model).")
@click.option("--variant", type=click.Choice(list(VARIANTS)), default="s", show_default=True,
              help="s: the hypotheses are shown as sentences (LLM-S); e: as their ERRANT edits (LLM-E).")
@click.option("--criterion", help="A criterion prompt: grammaticality, fluency, meaning (s); difficulty, impact (e).")
@click.option("--grouping", type=click.Choice(["all", "gec-metrics"]), default="all", show_default=True,
              help="all: every distinct hypothesis scored, 5 a prompt; gec-metrics: as gec-metrics, one prompt per "
                   "source with its 5 most frequent distinct hypotheses (others get no score).")
@click.option("--base-url", metavar="URL", help="The server's URL (default: the provider's).")
@click.option("--api-key-env", metavar="NAME", help="The environment variable holding the server's key [default: the "
                                                    "provider's; openai-compatible: none, no key sent].")
@click.option("--structured", type=click.Choice(["json_schema", "json_object", "none"]),
              help="HTTP: the answer's response_format: json_schema (gec-metrics'), json_object (any JSON object, "
                   "for a server without JSON schemas) or none (the prompt alone asks) [default: json_schema].")
@click.option("--temperature", type=FloatRange(0), help="HTTP: the sampling temperature sent [default: none sent, "
                                                       "the server's].")
@click.option("--max-requests", type=IntRange(0),
              help="Send at most this many requests (then stop cleanly; per worker process with -p).")
@click.option("--answer-retries", type=IntRange(0), help="Times a bad answer is asked again [default: 2].")
@click.option("--concurrency", type=IntRange(1), help="HTTP requests in flight [default: 4].")
@click.option("--rpm", "requests_per_minute", type=FloatRange(0, min_open=True), help="Requests per minute.")
@click.option("--max-retry-after", type=FloatRange(0, 86400), metavar="SECONDS",
              help="The longest Retry-After wait honoured; a server asking for longer stops the run [default: 120].")
@click.option("--timeout", type=FloatRange(0, min_open=True), metavar="SECONDS",
              help="The seconds a request may take before it is sent again [default: 120].")
@click.option("--max-retries", type=IntRange(0), help="Times a failed request (no answer in time, HTTP 429 or 5xx, a "
                                                      "dropped connection) is sent again [default: 5].")
@click.option("--device", help="Local model: cpu, cuda, cuda:N, mps or auto (CUDA if available) [default: cpu].")
@click.option("--dtype", type=click.Choice(["auto", "float32", "float16", "bfloat16"]),
              help="Local model: the weights' dtype [default: auto].")
@click.option("--batch-size", type=IntRange(1), help="Local model: prompts decoded together [default: 8].")
@click.option("--spacy-model", help="LLM-E: the spaCy model of the ERRANT annotator [default: $GECMETRICS_SPACY_MODEL, "
                                    "else en_core_web_sm].")
@click.option("--dry-run", is_flag=True, help="Print how many prompts would be sent (and how many are cached), their "
                                                "estimated tokens and (--price-in/--price-out) cost; send nothing.")
@click.option("--price-in", type=FloatRange(0), help="Dry run: price of a million prompt tokens.")
@click.option("--price-out", type=FloatRange(0), help="Dry run: price of a million answer tokens.")
@click.option("--sentence", is_flag=True, help=SENTENCE_HELP)
@format_options
@scale_option
@digits_option(4, "Decimals of the scores (1-5 and their means; rounded half up), and of a dry run's cost.")
@run_options
@signature_option
def llm(source, hypotheses, variant, dry_run, price_in, price_out, sentence, scale, digits, jobs, chunk_lines,
        dask_address, show_signature, **settings):
    """Score systems with an LLM judge: each hypothesis gets 1-5, a system the mean over its
    sentences. Answers are cached: a second run sends nothing, an interrupted one resumes.

    \b
    gecmetric llm -s INPUT -o AMU CAMB CUUI --model openai:gpt-4o-mini --dry-run --price-in 0.15 --price-out 0.6
    gecmetric llm -s INPUT -o AMU CAMB CUUI --model vllm:Qwen/Qwen2.5-7B-Instruct --variant e
    gecmetric llm -s INPUT -o AMU CAMB CUUI --model transformers:/models/llama --device cuda --dtype bfloat16

    The run engine judges the corpus chunk by chunk (--chunk-lines, 50 sentences; -p N chunks at
    once); the prompts of a sentence show every system's hypothesis, whatever the chunking.
    --sentence prints each sentence's score; --signature the signature on stderr.
    """
    from ..metrics.registry import get_metric

    if (price_in is None) != (price_out is None):
        raise InputError("give both --price-in and --price-out (per million tokens)")
    if (price_in is not None) and not dry_run:
        raise InputError("--price-in and --price-out go with --dry-run")
    if dry_run:  # options that would change nothing in the estimate: refused, not ignored
        asked = (("--sentence", sentence or None), ("-p", jobs != 1 or None), ("--chunk-lines", chunk_lines),
                 ("--dask", dask_address), *((f, settings[k]) for f, k in NOT_ESTIMATED.items()))
        given = [flag for flag, value in asked if value is not None]
        if given:
            raise InputError("estimates the prompts of the whole corpus in this process (they do not depend on the "
                             "chunking), sends nothing, counts no retries and runs no model: not with "
                             + " or ".join(given), "--dry-run")
    if settings["spacy_model"] is not None and variant != "e":
        raise InputError("--spacy-model is for --variant e (LLM-E's ERRANT edits)")
    fmt = chosen_format("tsv")
    metric = in_run(get_metric(VARIANTS[variant], **{k: settings[k] for k in SETTINGS if settings[k] is not None}))
    check_scale([metric], scale)
    files = corpus_files(source, (), hypotheses)
    if dry_run:
        llm_run.dry_run(metric, files, None if price_in is None else (price_in, price_out), fmt, digits)
    else:
        llm_run.judge_and_print(metric, files, (jobs, chunk_lines, dask_address), fmt, digits, scale, sentence)
    if show_signature:  # what the numbers' signature is (a dry run's: the run it estimates)
        click.echo(scores_signature(metric.signature(None), sentence), err=True)
