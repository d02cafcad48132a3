"""Loading the encoder behind PT-M2's BERTScore: a model name (Hugging Face hub or its local
cache) or a local folder, its tokenizer, truncated to the layer whose output is used.

torch and transformers are optional (``pip install 'gecmetrics[pt]'``): they are imported here,
on first use, and their absence is one line of :class:`~gecmetrics.errors.InputError`. Every
failure to load (missing folder, unreadable weights, no tokenizer) is one such line as well.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import InputError, plural
from .runtime import import_torch_transformers
from .token_ids import tokenizer_digest

INSTALL_HINT = "pip install 'gecmetrics[pt]'"

DEFAULT_LAYERS = {"bert-base-uncased": 9, "bert-base-cased": 9, "bert-large-uncased": 18,
                  "bert-large-cased": 18, "roberta-base": 10, "roberta-large": 17,
                  "distilbert-base-uncased": 5, "distilroberta-base": 5}
"""BERTScore's default layer per model name (bert_score 0.3.11 ``model2layers``, tuned on WMT16),
for the names most used with PT-M2; other models need ``num_layers``."""

BYTE_LEVEL_TYPES = ("roberta", "gpt2", "bart", "longformer")
"""Model types whose tokenizers BERTScore calls with a prefix space (GPT-2 style BPE)."""

TOKENIZER_FILES = ("tokenizer.json", "vocab.txt", "vocab.json", "spiece.model", "sentencepiece.bpe.model",
                   "tokenizer.model")
"""Files of which a model folder needs at least one for its tokenizer's vocabulary."""

WEIGHT_FILES = ("model.safetensors", "pytorch_model.bin", "model.safetensors.index.json",
                "pytorch_model.bin.index.json")


def import_backend() -> tuple[Any, Any]:
    """(torch, transformers), or one line saying that PT-M2 and PT-ERRANT need them (the ``pt`` extra)."""
    return import_torch_transformers("PT-M2 and PT-ERRANT", INSTALL_HINT)


@contextlib.contextmanager
def quiet_loading(transformers: Any):
    """Silence transformers while it loads or saves, then restore it: its progress bars, its log
    below errors (the load report listing missing and unexpected weights, advice on tied
    weights: what matters of it becomes our one line, :func:`load_checked`) and Python warnings."""
    logging = getattr(getattr(transformers, "utils", None), "logging", None)
    switch = all(hasattr(logging, name) for name in ("is_progress_bar_enabled", "disable_progress_bar",
                                                      "enable_progress_bar"))
    was_enabled = switch and logging.is_progress_bar_enabled()
    verbosity = logging.get_verbosity() if hasattr(logging, "get_verbosity") and hasattr(logging, "set_verbosity") \
        else None
    if was_enabled:
        logging.disable_progress_bar()
    if verbosity is not None:
        logging.set_verbosity(logging.ERROR)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        if verbosity is not None:
            logging.set_verbosity(verbosity)
        if was_enabled:
            logging.enable_progress_bar()


def load_checked(loader: Any, source: str, expected: str, unused: tuple[str, ...] = (), **options: Any) -> Any:
    """``loader.from_pretrained(source, **options)``, quietly, as a model of the kind
    ``expected`` describes ("a one-output sequence classifier ..."): a checkpoint that lacks
    weights the model needs (another architecture: transformers would start them at random and
    print a load report) or has weights of other shapes is one line naming the folder, what it
    holds and what was expected. ``unused``: name parts of weights the caller never reads
    (a pooler whose output is not used), which may be missing."""
    import transformers

    try:
        with quiet_loading(transformers):
            model, info = loader.from_pretrained(source, output_loading_info=True, **options)
    except Exception as err:  # missing or corrupt weights, unknown architecture, no network
        raise InputError(f"cannot load the model as {expected}: {first_line(err)}", source) from None
    missing = sorted(key for key in info.get("missing_keys", ()) if not any(part in key for part in unused))
    mismatched = list(info.get("mismatched_keys", ()))
    if missing or mismatched:
        problem = (f"{plural(len(missing), 'weight')} it needs {'is' if len(missing) == 1 else 'are'} not in the "
                   f"checkpoint ({', '.join(missing[:2])}{', ...' if len(missing) > 2 else ''})") if missing else \
            f"{plural(len(mismatched), 'weight')} of other shapes ({mismatched[0][0] if mismatched[0] else ''})"
        raise InputError(f"not {expected}: the folder holds {held(model.config)}, and {problem}", source)
    import torch

    from .encoder import check_finite_weights

    check_finite_weights(torch, model.named_parameters(), source)
    return model


def check_vocabulary(tokenizer: Any, source: str) -> Any:
    """A tokenizer with words beside its special tokens: transformers builds one that knows only
    those from a folder without its vocabulary files (a GPT-2 without vocab.json and merges.txt
    made every text its BOS alone, and the Scribendi Score of nothing was printed)."""
    if len(tokenizer) <= len(set(tokenizer.all_special_ids)):
        raise InputError("no usable tokenizer: its vocabulary has only special tokens", source)
    return tokenizer


def held(config: Any) -> str:
    """What a model's config says it is: its architecture (``a GPT2LMHeadModel``), else its type."""
    architectures = getattr(config, "architectures", None) or []
    if architectures:
        return f"a {architectures[0]}"
    return f"a {getattr(config, 'model_type', '') or 'model of unknown type'} model"


@dataclass
class LoadedModel:
    """A tokenizer and an encoder cut after ``num_layers`` layers, on ``device``, with what
    identifies them in a signature (``revision``, library versions)."""

    name: str
    tokenizer: Any
    model: Any
    device: Any
    num_layers: int
    revision: str
    torch_version: str
    transformers_version: str
    prefix_space: bool
    cls_id: int
    sep_id: int
    max_length: int
    direct: bool = False
    """Whether the encoder is computed straight from the weights (``encoder.DirectBert``) or by
    transformers' model class: the two agree to ~1e-6, not to the bit, so signatures say which."""
    tokenizer_digest: str = ""
    """What identifies the tokenizer's files (:func:`~.token_ids.tokenizer_digest`); "" unknown."""

    def encode(self, texts: list[str], cuts: dict[str, int] | None = None) -> list[tuple[int, ...]]:
        """Token ids of each text as BERTScore makes them: stripped, special tokens added,
        truncated to the model's maximum length; an empty text is [CLS] [SEP]. ``cuts``: a dict
        that receives, for each text that was truncated, its token count before (found from the
        ids computed here; only a text the tokenizer itself cut to the maximum is tokenized whole
        to tell)."""
        from .wordpiece import fast_token_ids, with_special_tokens

        stripped = [text.strip() for text in texts]
        present = [(text, strip) for text, strip in zip(texts, stripped) if strip]
        fast = fast_token_ids(self.tokenizer) if present else None  # the Python BERT tokenizer's, word by word
        if fast is not None:
            pieces = fast([strip for _, strip in present])
            whole = {text: len(ids) + 2 for (text, _), ids in zip(present, pieces)}
            encoded = [with_special_tokens(ids, self.cls_id, self.sep_id, self.max_length) for ids in pieces]
        else:
            encoded = self.tokenizer([strip for _, strip in present], add_special_tokens=True, truncation=True,
                                     max_length=self.max_length)["input_ids"] if present else []
            full = [(text, strip) for (text, strip), ids in zip(present, encoded) if len(ids) >= self.max_length]
            whole = dict(zip((text for text, _ in full), (len(ids) for ids in self.tokenizer(
                [strip for _, strip in full], add_special_tokens=True, verbose=False)["input_ids"]))) \
                if full and cuts is not None else {}
        if cuts is not None:
            cuts.update((text, length) for text, length in whole.items() if length > self.max_length)
        ids = iter(encoded)
        return [tuple(next(ids)) if strip else self.empty_ids() for strip in stripped]

    def empty_ids(self) -> tuple[int, ...]:
        """The ids of an empty sentence: the special tokens alone."""
        build = getattr(self.tokenizer, "build_inputs_with_special_tokens", None)  # gone in transformers 5
        if build is not None:
            return tuple(build([]))
        return tuple(self.tokenizer([""], add_special_tokens=True)["input_ids"][0])


VOLATILE_CONFIG_FIELDS = frozenset({"_name_or_path", "transformers_version", "_commit_hash", "torch_dtype", "dtype",
                                    "_attn_implementation_autoset"})
"""Fields of a config.json that name or describe the file, not what the model computes."""


def local_config(source: str) -> dict | None:
    """A model's config.json as a dict: a folder's, or a hub model's in the local cache (never a
    download); None when there is none or it cannot be read."""
    import json

    path = os.path.join(source, "config.json") if os.path.isdir(source) else None
    if path is None:
        try:
            _, transformers = import_backend()
            path = transformers.utils.cached_file(source, "config.json", local_files_only=True)
        except Exception:  # not in the local cache (or no transformers)
            return None
    try:
        with open(path, "rb") as handle:
            config = json.loads(handle.read())
    except (OSError, ValueError, TypeError):
        return None
    return config if isinstance(config, dict) else None


def check_positions(sources: dict[str, str], max_length: int) -> None:
    """Refuse a maximum input length (``max_length``, ``--max-length``) longer than a model's
    position embeddings (``max_position_embeddings`` of its config.json, read where it is on
    this machine: a folder or the local hub cache), before any work: otherwise the first input
    that long would fail in the middle of a run. ``sources``: what names each model -> its name
    or folder; a model whose config is not here is checked when it loads."""
    for shown, name in sources.items():
        config = local_config(os.path.expanduser(name))  # never a download
        positions = config.get("max_position_embeddings") if config is not None else None
        if isinstance(positions, int) and not isinstance(positions, bool) and 0 < positions < max_length:
            raise InputError(f"max_length (--max-length) {max_length} is more than the {positions} positions of the "
                             f"model {shown} (max_position_embeddings in its config.json): give at most {positions}")


def config_digest(source: str) -> str:
    """16 hex digits of SHA-256 over a model's config.json (a folder's, or a hub model's in the
    local cache; never a download), parsed and dumped with sorted keys and without the fields
    that only name the file: what, beside the weights, decides a model's outputs (a changed
    ``layer_norm_eps`` or activation with the same weights). Cached model outputs are keyed by
    it; "" when there is no readable config (such outputs are then keyed by the weights alone)."""
    import json

    config = local_config(source)
    if config is None:
        return ""
    kept = {key: value for key, value in config.items() if key not in VOLATILE_CONFIG_FIELDS}
    return hashlib.sha256(json.dumps(kept, sort_keys=True, default=str).encode("utf-8")).hexdigest()[:16]


def first_line(error: BaseException) -> str:
    """The first line of an exception's message (its type's name when it has none)."""
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def to_device(torch: Any, model: Any, device: str | None) -> tuple[Any, Any]:
    """(the model on the device, the torch device): ``device``, else CUDA when torch sees one,
    else the CPU; a device torch cannot use is one line."""
    try:
        chosen = torch.device(device or ("cuda" if torch.cuda.is_available() else "cpu"))
        return model.to(chosen), chosen
    except (RuntimeError, AssertionError) as err:
        raise InputError(f"cannot use device {device!r}: {first_line(err)}") from None


def shown_model(name: str) -> str:
    """A model as a signature shows it: a hub name as given, a folder by its last part (its
    weights fingerprint says the rest)."""
    path = os.path.expanduser(name)
    return os.path.basename(os.path.normpath(path)) if os.path.isdir(path) else name


def signed_model(name: str, fingerprint: str, config: str) -> str:
    """A model as a signature names it: :func:`shown_model`, ``@`` the first 12 hex digits of
    its weights fingerprint and, when it has a config.json, ``/config-`` the first 8 of
    :func:`config_digest` (the same weights under another config compute other numbers: one
    naming fewer layers, another ``layer_norm_eps``)."""
    signed = f"{shown_model(name)}@{fingerprint[:12]}"
    return f"{signed}/config-{config[:8]}" if config else signed


def tokenizer_files(source: str) -> str:
    """The first 12 hex digits of :func:`~.token_ids.tokenizer_digest` of a tokenizer's files
    (``source``: a folder, or a hub model's cached snapshot), the digest its token ids are stored
    under in the cache; "" when they are not on disk."""
    return tokenizer_digest(source).partition(":")[2][:12]


def signed_tokenizer(name: str, source: str) -> str:
    """A tokenizer as a signature names it: :func:`shown_model`, ``@`` and :func:`tokenizer_files`
    where its files are on disk: two folders of one name whose files differ (``do_lower_case`` in
    tokenizer_config.json) give other numbers, and so other signatures."""
    files = tokenizer_files(source)
    return f"{shown_model(name)}@{files}" if files else shown_model(name)


def torch_threads(threads: int) -> int:
    """``threads``, or torch's own thread count when it is 0 (torch's default: imports torch)."""
    return threads or import_backend()[0].get_num_threads()


GPU_DEVICE_FILES = ("/dev/nvidiactl", "/dev/nvidia0", "/dev/dxg", "/dev/kfd")
"""The device files through which a process on Linux reaches a GPU: NVIDIA's driver, WSL 2's
GPU and AMD's ROCm (torch's CUDA build runs on both of the latter)."""


def cpu_without_torch(device: str | None) -> bool:
    """Whether a model would run on the CPU, known without importing torch (about 1.5 s): the
    device is ``cpu``, or not given (:func:`to_device`: CUDA when torch sees a GPU, else the CPU)
    on a machine where torch cannot see one (macOS, which has no CUDA; Linux without any of
    :data:`GPU_DEVICE_FILES`). Anywhere else only torch can tell: False."""
    if device is not None:
        return device == "cpu"
    if sys.platform == "darwin":
        return True
    return sys.platform.startswith("linux") and not any(os.path.exists(path) for path in GPU_DEVICE_FILES)


HUB_PROBE_SECONDS = 10.0
"""How long the one look at the hub for a model not on disk may take (no retries)."""


def model_source(name: str) -> str:
    """Where a model is read from: a folder as given; a hub name found in the Hugging Face cache
    as its cached snapshot folder (nothing asked of the network: a cached model loads offline,
    and the snapshot's commit names it); any other hub name as given (transformers downloads
    it), after one quick look at the hub (no retries), so that a model that is not on disk
    while the hub cannot be reached, or while ``HF_HUB_OFFLINE`` is set, is one line at once
    instead of a minute of retries. A path-like name must be an existing model folder."""
    if not isinstance(name, str) or not name.strip():
        raise InputError(f"the model must be a model name or a folder, got {name!r}")
    name = os.path.expanduser(name.strip())
    if os.path.isdir(name):
        if not os.path.isfile(os.path.join(name, "config.json")):
            raise InputError("not a model folder: it has no config.json", name)
        return name
    if os.path.exists(name):
        raise InputError("not a model folder (a file was given)", name)
    if name.startswith((".", "/", "~")) or name.count("/") > 1:  # a path (hub names are NAME or ORG/NAME)
        raise InputError("no such model folder", name)
    return hub_source(name)


NOT_ON_DISK = "no such model folder, nor a model of that name in the Hugging Face cache"
GIVE_A_FOLDER = "give the model's folder (model=DIR, --model DIR)"


def hub_source(name: str) -> str:
    """A hub name's cached snapshot folder, or the name when the hub answers for it; else one
    line saying the model is not on disk and why it cannot be downloaded."""
    try:
        import huggingface_hub
        from huggingface_hub import constants, errors
    except ImportError:  # transformers without huggingface_hub cannot download either
        return name
    snapshot = cached_snapshot(huggingface_hub, name)
    if snapshot is not None:
        return snapshot
    if constants.HF_HUB_OFFLINE:
        raise InputError(f"{NOT_ON_DISK}, and HF_HUB_OFFLINE is set, so it is not downloaded: {GIVE_A_FOLDER}, "
                         "or unset HF_HUB_OFFLINE where the hub can be reached", name)
    try:
        huggingface_hub.get_hf_file_metadata(huggingface_hub.hf_hub_url(name, "config.json"),
                                             timeout=HUB_PROBE_SECONDS)
    except errors.GatedRepoError:  # there, behind an access request: transformers says what to do
        return name
    except (errors.RepositoryNotFoundError, errors.EntryNotFoundError, errors.RevisionNotFoundError):
        raise InputError(f"{NOT_ON_DISK}, and the Hugging Face hub has no such model (or none you may read): "
                         f"{GIVE_A_FOLDER}", name) from None
    except Exception as err:  # no network, no name resolution, a proxy or the hub down, a timeout
        raise InputError(f"{NOT_ON_DISK}, and the Hugging Face hub cannot be reached ({first_line(err)[:120]}): "
                         f"{GIVE_A_FOLDER}, or download it first; set HF_HUB_OFFLINE=1 to skip the hub", name) from None
    return name


def cached_snapshot(huggingface_hub: Any, name: str) -> str | None:
    """The folder of a hub model's cached snapshot (its main revision) when it holds config.json
    and a weight file, else None. Reads the cache only."""
    try:
        found = huggingface_hub.try_to_load_from_cache(name, "config.json")
    except Exception:  # a name the hub would refuse, an unreadable cache
        return None
    if not isinstance(found, str):
        return None
    folder = os.path.dirname(found)
    return folder if any(os.path.isfile(os.path.join(folder, weights)) for weights in WEIGHT_FILES) else None


def python_bert_tokenizer_class(transformers: Any) -> Any:
    """transformers' Python (slow) ``BertTokenizer``: ``BertTokenizerLegacy`` in transformers 5,
    ``BertTokenizer`` before. Not the Rust one: the Python one NFC-normalizes the text (since
    transformers 4.29: ``cafe`` + U+0301 is ``café``), removes every character whose category
    starts with C in Python's Unicode tables (private use, unassigned), splits on the punctuation
    of those tables; the Rust one does none of these the same way."""
    legacy = getattr(transformers, "BertTokenizerLegacy", None)
    return legacy if legacy is not None else transformers.BertTokenizer


BERT_WORDPIECE = ("BertTokenizer", "BertTokenizerFast", "DistilBertTokenizer", "DistilBertTokenizerFast")
"""The classes ``AutoTokenizer`` gives for BERT's WordPiece (the Rust ones; in transformers 4 the
Python ones too, when asked), which bert_score reads with transformers' Python tokenizer."""


def as_bert_score_loads_it(transformers: Any, source: str, tokenizer: Any) -> Any:
    """The tokenizer bert_score would use: it loads ``AutoTokenizer.from_pretrained(model,
    use_fast=False)`` (PT-M2's copy always, the package's ``score`` and ``BERTScorer`` by
    default), which for BERT's WordPiece is the Python ``BertTokenizer``
    (:func:`python_bert_tokenizer_class`; transformers 5 ignores ``use_fast``). Other tokenizers
    are kept, and so is a BERT one the Python class cannot read (a folder without vocab.txt)."""
    if type(tokenizer).__name__ not in BERT_WORDPIECE:
        return tokenizer
    try:
        return python_bert_tokenizer_class(transformers).from_pretrained(source)
    except Exception:  # no vocab.txt (tokenizer.json alone): the Python class cannot be built
        return tokenizer


def _load_tokenizer(transformers: Any, source: str, prefix_space: bool) -> Any:
    """The model's tokenizer; a folder without vocabulary is an error (transformers 5 would
    quietly build a tokenizer that knows only the special tokens)."""
    if os.path.isdir(source) and not any(os.path.isfile(os.path.join(source, f)) for f in TOKENIZER_FILES):
        raise InputError(f"no usable tokenizer for this model: none of {', '.join(TOKENIZER_FILES)} in the folder",
                         source)
    options = {"add_prefix_space": True} if prefix_space else {}
    try:
        tokenizer = transformers.AutoTokenizer.from_pretrained(source, **options)
    except Exception as err:  # transformers raises OSError, ValueError, TypeError ... by case
        raise InputError(f"no usable tokenizer for this model: {first_line(err)}", source) from None
    tokenizer = as_bert_score_loads_it(transformers, source, tokenizer)
    if not callable(tokenizer) or getattr(tokenizer, "cls_token_id", None) is None \
            or getattr(tokenizer, "sep_token_id", None) is None:
        raise InputError("the model's tokenizer has no [CLS]/[SEP] (start/end) tokens, which BERTScore needs",
                         source)
    if len(tokenizer) <= len(set(tokenizer.all_special_ids)):
        raise InputError("no usable tokenizer for this model: its vocabulary has only special tokens", source)
    return tokenizer


def _load_encoder(transformers: Any, source: str) -> Any:
    model = load_checked(transformers.AutoModel, source, "an encoder (what AutoModel loads)", unused=("pooler.",))
    if hasattr(model, "encoder") and hasattr(model, "decoder"):
        model = model.encoder
    return model


def _layer_list(model: Any, name: str = "") -> tuple[Any, str]:
    """The module holding the encoder's layers and the attribute name of the layer list."""
    for holder_name in ("encoder", "transformer"):
        holder = getattr(model, holder_name, None)
        if holder is not None and hasattr(holder, "layer"):
            return holder, "layer"
    if hasattr(model, "layers"):
        return model, "layers"
    raise InputError(f"unsupported model architecture {type(model).__name__}: BERTScore needs an encoder whose "
                     "list of layers it can cut (BERT, RoBERTa, DeBERTa ...)", name or None)


def truncate_layers(torch: Any, model: Any, num_layers: int, name: str) -> None:
    """Keep the first ``num_layers`` layers (BERTScore takes the output of that layer)."""
    holder, attribute = _layer_list(model, name)
    layers = getattr(holder, attribute)
    if not 0 <= num_layers <= len(layers):
        raise InputError(f"num_layers (--layer) must be between 0 and {len(layers)} for model {name}, got {num_layers}")
    setattr(holder, attribute, torch.nn.ModuleList(list(layers)[:num_layers]))


_DIGESTS: dict[tuple, str | None] = {}
"""Weight digests made in this process, by :func:`~.folders.files_stamp` of the weight files: a
run that checks a model's identity before loading it hashes its weights once."""


def weight_paths(folder: Path) -> list[Path]:
    """The weight files of a model folder: the single files of :data:`WEIGHT_FILES`, and after an
    index (``model.safetensors.index.json``) the shards its ``weight_map`` names, in name order
    (hashing the index alone kept the same digest, and the stored identity and outputs of the
    old model, for shards written again)."""
    paths = [folder / file_name for file_name in WEIGHT_FILES if (folder / file_name).is_file()]
    for index in [path for path in paths if path.name.endswith(".index.json")]:
        try:
            weight_map = json.loads(index.read_text(encoding="utf-8")).get("weight_map", {})
            names = sorted({name for name in weight_map.values() if isinstance(name, str)})
        except (ValueError, AttributeError, OSError):  # not an index transformers can load either
            continue
        paths += [folder / name for name in names if (folder / name).is_file()]
    return paths


def weights_digest(folder: Path) -> str | None:
    """SHA-256 (first 12 hex digits) of the weight files of a model folder (:func:`weight_paths`),
    or None."""
    from .folders import files_stamp, hash_file

    paths = weight_paths(folder)
    stamp = files_stamp(folder, paths)
    if stamp not in _DIGESTS:
        digest = hashlib.sha256()
        for path in paths:
            hash_file(digest, path)
        _DIGESTS[stamp] = digest.hexdigest()[:12] if paths else None
    return _DIGESTS[stamp]


def _snapshot_commit(transformers: Any, name: str) -> str | None:
    """The commit of a hub model's cached snapshot (its folder name), or None."""
    try:
        path = Path(transformers.utils.cached_file(name, "config.json", local_files_only=True))
    except Exception:  # not cached, or an older transformers without this helper
        return None
    return path.parent.name if path.parent.parent.name == "snapshots" else None


def folder_revision(source: str) -> str | None:
    """What :func:`model_revision` says of a model folder without loading it: the hub commit a
    cached snapshot folder is named after, else the SHA-256 of the folder's weights; None for a
    hub name, or a folder without weight files."""
    path = Path(source)
    if path.is_dir() and path.parent.name == "snapshots" and path.parent.parent.name.startswith("models--"):
        return f"commit:{path.name[:12]}"
    if os.path.isdir(source):
        digest = weights_digest(path)
        if digest:
            return f"sha256:{digest}"
    return None


def model_revision(transformers: Any, model: Any, source: str) -> str:
    """The SHA-256 of a local folder's weights, else the hub commit of a downloaded model (a
    cached snapshot folder: the commit it is named after)."""
    revision = folder_revision(source)
    if revision is not None:
        return revision
    config = model.config
    commit = (config.get("_commit_hash") if isinstance(config, dict) else getattr(config, "_commit_hash", None)) \
        or _snapshot_commit(transformers, source)
    return f"commit:{commit[:12]}" if commit else "unknown"


def default_layers(name: str) -> int:
    """BERTScore's default layer for a known model name; other models must say."""
    if name in DEFAULT_LAYERS:
        return DEFAULT_LAYERS[name]
    raise InputError(f"no default layer is known for model {name!r}: give it (num_layers, --layer N); "
                     f"BERTScore's defaults are known for {', '.join(sorted(DEFAULT_LAYERS))}")


def _direct_encoder(torch: Any, transformers: Any, source: str, num_layers: int, name: str) -> Any:
    """The model as a :class:`~gecmetrics.core.models.encoder.DirectBert` when it is a plain BERT with
    one weight file (in the folder, or in the hub cache), else None (transformers loads it)."""
    from .encoder import DirectBert, read_config, read_weights, supports, weight_file

    if os.path.isdir(source):
        config_path, weights = os.path.join(source, "config.json"), weight_file(source)
    else:
        try:
            config_path = transformers.utils.cached_file(source, "config.json")
            weights = _cached_weights(transformers, source)
        except Exception:  # not cached and no network, or no such model: transformers says which
            return None
    config = read_config(config_path)
    if weights is None or not supports(config):
        return None
    if not 0 <= num_layers <= config["num_hidden_layers"]:
        raise InputError(f"num_layers (--layer) must be between 0 and {config['num_hidden_layers']} for model {name}, "
                         f"got {num_layers}")
    try:
        return DirectBert(torch, config, read_weights(torch, weights), num_layers)
    except Exception as err:  # corrupt or incomplete weights
        raise InputError(f"cannot load the model: {first_line(err)}", source) from None


def _cached_weights(transformers: Any, name: str) -> str | None:
    """The path of a hub model's single weight file (downloaded into the cache if needed)."""
    from .encoder import WEIGHT_NAMES

    for file_name in WEIGHT_NAMES:
        try:
            path = transformers.utils.cached_file(name, file_name)
        except Exception:  # this file is not in the repository
            continue
        if path:
            return path
    return None


def text_limit(tokenizer: Any, model: Any) -> int:
    """The most tokens of a text the model reads: the tokenizer's ``model_max_length`` (bert_score's
    limit), never more than the model's positions (``max_position_embeddings``, less the padding
    offset of RoBERTa-style embeddings). A tokenizer folder that sets no ``model_max_length`` has
    transformers' 1e30: a longer text then failed inside the model with a tensor size error."""
    limit = min(getattr(tokenizer, "model_max_length", 512) or 512, 10**9)
    config = model.config
    positions = config.get("max_position_embeddings") if isinstance(config, dict) else \
        getattr(config, "max_position_embeddings", None)
    if isinstance(positions, int) and not isinstance(positions, bool) and positions > 0:
        padding = getattr(getattr(model, "embeddings", None), "padding_idx", None)
        offset = padding + 1 if isinstance(padding, int) and not isinstance(padding, bool) else 0
        limit = min(limit, max(positions - offset, 2))
    return int(limit)


def load_model(name: str, num_layers: int | None = None, device: str | None = None,
               source: str | None = None) -> LoadedModel:
    """Load a tokenizer and encoder by hub name or local folder, cut after ``num_layers``
    layers (default: BERTScore's layer for that name), in evaluation mode on ``device``
    (default: CUDA when available, else CPU). Plain BERT models are computed directly from
    their weights (``encoder.py``), others by transformers' model classes. ``source``: where
    :func:`model_source` found the model, when the caller has asked it already."""
    torch, transformers = import_backend()
    source = model_source(name) if source is None else source
    layers = default_layers(name) if num_layers is None else num_layers
    with quiet_loading(transformers):
        model = _direct_encoder(torch, transformers, source, layers, name)
        direct = model is not None
        if model is None:
            model = _load_encoder(transformers, source)
            truncate_layers(torch, model, layers, name)
        model_type = model.config["model_type"] if isinstance(model.config, dict) else \
            getattr(model.config, "model_type", "")
        prefix_space = model_type in BYTE_LEVEL_TYPES
        tokenizer = _load_tokenizer(transformers, source, prefix_space)
    model, chosen = to_device(torch, model, device)
    model.eval()
    max_length = text_limit(tokenizer, model)
    revision = model_revision(transformers, model, source)
    return LoadedModel(name, tokenizer, model, chosen, layers, revision, torch.__version__,
                       transformers.__version__, prefix_space, int(tokenizer.cls_token_id),
                       int(tokenizer.sep_token_id), max_length, direct, tokenizer_digest(source, revision))
