"""A tiny BERT built from fixed seeded weights: the same model on every machine, for checking
PT-M2 and PT-ERRANT against the authors' code where real weights cannot be downloaded.

The model is a ``BertModel`` of 12 layers (like ``bert-base-uncased``, so the default layer 9
exists) with a hidden size of 64, and an uncased WordPiece vocabulary written here: the special
tokens, ASCII letters, digits and punctuation (alone and as ``##`` continuations, so that every
ASCII word is tokenized into pieces), common English words and suffixes; anything else is
``[UNK]``. Weights do not come from ``transformers``' initializers (which may change between
versions) but from NumPy's frozen ``RandomState`` stream, seeded per parameter name, and are
written straight to ``model.safetensors`` under ``BertModel``'s parameter names
(:func:`~.encoder.bert_parameter_shapes`) with a hand-written ``config.json``: building needs NumPy and
safetensors (which transformers installs), not torch or transformers' model classes (importing
those took about 6 of the 8 s a build cost), and the folder's bytes do not depend on the
installed transformers.
"""
from __future__ import annotations

import hashlib
import json
import os
import string
import zlib
from pathlib import Path

from ...errors import InputError
from .encoder import bert_parameter_shapes

SEED = 2022
"""The default seed (the year of the PT-M2 paper)."""

SPECIAL_TOKENS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]

# Frequent English words and the themes of the CoNLL-2014 essays (genetic testing, social
# media, ageing, surveillance): a hand-written list, lower case.
COMMON_WORDS = """
the of and to a in is it that for you was with on as have be at by not this are but from or
had his they an which she he one all we there their been has more if when will would who so no
what up out can about some them other than then into its only time could these may two first
any my now such like our over man me even most made after also did many before must through
back years where much your way well should because each just those people how too little state
good very make world still own see men work long get here between both life being under never
day same another know while last might us great old year off come since against go came right
used take three states himself few house use during without again place around however home
small found thought went say part once general high upon school every don does got united left
number course war until always away something fact though water less public put think almost
hand enough far took head yet government system better set told nothing night end why called
didn eyes find going look asked later knew point next city give group toward young let room
president side social given present several order national possible rather second face per
among form important often things looked early white case become large big need four within felt
along children saw best church ever least power development light thing seemed family interest
want members mind country area others done turned although open god service problem certain
kind different thus began door help means sense whole matter perhaps itself york times law human
line above name example action company hands local show whether five history gave today either
act feet across taken past quite anything seen having death week experience body word half
really field am car words already themselves information tell together college shall money period
held keep sure real probably free seems political cannot behind miss question air office making
brought whose special heard major problems ago became federal moment study available known result
street economic boy position reason change south board individual job areas society west close
turn love community true court force full seem am care patients patient genetic gene genes
testing test tests tested disease diseases risk risks relatives relative insurance privacy media
technology technologies surveillance elderly aging ageing population older healthy health medical
doctor doctors parents child friends friend friendship online internet facebook twitter
communication communicate communicating phone phones mobile safety security personal data
rights disclose disclosed disclosure inform informed decision decisions benefit benefits
problem solution solutions affect affects effect effects because therefore moreover
furthermore addition conclusion although besides nowadays important importance cause causes
caused lead leads increase increased increasing develop developed developing treatment cancer
carrier carriers born baby babies future generation generations know knowing tell telling
should could would might must can will shall do does did done is are was were be been being
have has had having get gets got getting make makes made making take takes took taken taking
use uses used using go goes went gone going say says said saying see sees saw seen seeing
think thinks thought thinking feel feels felt feeling live lives lived living become becomes
an a the this that these those it its they their them he she his her we our us i my me you your
in on at by for from with about into over under between through during before after against
and or but so yet nor not no yes very too also only just even still already again
""".split()

SUFFIXES = """s es ed ing ly er ers est ion ions tion tions ment ments ness ful less able ible al
ity ive ous ize ise ized ised izing ising ance ence ant ent ism ist ists ship hood y ies ied""".split()

LETTERS_AND_DIGITS = list(string.ascii_lowercase + string.digits)


def tiny_vocabulary() -> list[str]:
    """The WordPiece vocabulary, in id order: specials, punctuation, letters and digits (alone and
    as continuations), suffixes, then the common words (each token once)."""
    tokens = list(SPECIAL_TOKENS) + list(string.punctuation) + LETTERS_AND_DIGITS
    tokens += ["##" + piece for piece in LETTERS_AND_DIGITS] + ["##" + suffix for suffix in SUFFIXES]
    tokens += COMMON_WORDS
    seen: set[str] = set()
    return [token for token in tokens if not (token in seen or seen.add(token))]


def tiny_config(vocabulary_size: int) -> dict:
    """The BERT configuration: 12 layers, hidden size 64, 4 heads, 512 positions."""
    return {"architectures": ["BertModel"], "model_type": "bert", "vocab_size": vocabulary_size,
            "hidden_size": 64, "num_hidden_layers": 12, "num_attention_heads": 4, "intermediate_size": 128,
            "hidden_act": "gelu", "hidden_dropout_prob": 0.1, "attention_probs_dropout_prob": 0.1,
            "max_position_embeddings": 512, "type_vocab_size": 2, "initializer_range": 0.02,
            "layer_norm_eps": 1e-12, "pad_token_id": 0, "position_embedding_type": "absolute"}


def parameter_values(name: str, shape: tuple[int, ...], seed: int):
    """The value of one parameter: LayerNorm gains 1, biases 0, embeddings N(0, 1), other
    matrices N(0, 0.15^2); drawn from ``RandomState(seed + crc32(name))``, frozen across NumPy
    versions, so adding or removing another parameter changes nothing here."""
    import numpy as np

    if name.endswith("LayerNorm.weight"):
        return np.ones(shape, dtype=np.float32)
    if name.endswith(".bias"):
        return np.zeros(shape, dtype=np.float32)
    return seeded_normal(name, shape, seed, 1.0 if "embeddings" in name else 0.15)


def seeded_normal(name: str, shape: tuple[int, ...], seed: int, scale: float):
    """N(0, scale^2) float32 values of one parameter from ``RandomState(seed + crc32(name))``
    (frozen across NumPy versions; one stream per parameter name)."""
    import numpy as np

    stream = np.random.RandomState((seed + zlib.crc32(name.encode("utf-8"))) % 2**32)
    return (stream.standard_normal(size=shape) * scale).astype(np.float32)


def weights_fingerprint(state: dict) -> str:
    """SHA-256 over the parameters (name, shape, float32 bytes) in name order: identifies the
    weights whatever file format stored them."""
    import numpy as np

    digest = hashlib.sha256()
    for name in sorted(state):
        array = np.ascontiguousarray(np.asarray(state[name], dtype=np.float32))
        digest.update(f"{name}:{array.shape}\n".encode("utf-8"))
        digest.update(array.tobytes())
    return digest.hexdigest()


def build_tiny_bert(folder: str | os.PathLike[str], seed: int = SEED) -> str:
    """Write the tiny BERT (config, weights, vocabulary, tokenizer config) to ``folder`` and
    return the fingerprint of its weights. Needs NumPy and safetensors; loading it needs torch
    and transformers."""
    vocabulary = tiny_vocabulary()
    config = tiny_config(len(vocabulary))
    state = {name: parameter_values(name, shape, seed) for name, shape in bert_parameter_shapes(config).items()}
    return save_seeded(Path(folder), config, state, vocabulary, lower_case=True)


def save_seeded(target: Path, config: dict, state: dict, vocabulary: list[str], lower_case: bool) -> str:
    """Write the weights ``state`` (parameter name -> float32 NumPy array) as
    ``model.safetensors``, ``config`` as ``config.json`` and the tokenizer files to ``target``;
    return the fingerprint of the weights."""
    target.mkdir(parents=True, exist_ok=True)
    write_weights(target, state)
    (target / "config.json").write_text(json.dumps(config, indent=1) + "\n", encoding="utf-8")
    write_tokenizer(target, vocabulary, lower_case=lower_case)
    return weights_fingerprint(state)


def write_weights(folder: Path, state: dict) -> None:
    """``model.safetensors`` of the weights ``state`` (parameter name -> NumPy array), as
    transformers' ``save_pretrained`` writes it (metadata format pt)."""
    try:
        from safetensors.numpy import save_file
    except ImportError as err:
        raise InputError(f"building a tiny model needs safetensors ({err}): pip install 'gecmetrics[models]'"
                         ) from None
    save_file(state, str(folder / "model.safetensors"), metadata={"format": "pt"})


def write_tokenizer(folder: Path, vocabulary: list[str], lower_case: bool) -> None:
    """The files of a ``BertTokenizer`` (vocab.txt, tokenizer_config.json,
    special_tokens_map.json), readable by transformers 4 and 5."""
    (folder / "vocab.txt").write_text("".join(token + "\n" for token in vocabulary), encoding="utf-8")
    tokenizer_config = {"tokenizer_class": "BertTokenizer", "do_lower_case": lower_case, "tokenize_chinese_chars": True,
                        "strip_accents": None, "model_max_length": 512, "unk_token": "[UNK]", "sep_token": "[SEP]",
                        "pad_token": "[PAD]", "cls_token": "[CLS]", "mask_token": "[MASK]"}
    (folder / "tokenizer_config.json").write_text(json.dumps(tokenizer_config, indent=1) + "\n", encoding="utf-8")
    special = {key: tokenizer_config[key] for key in ("unk_token", "sep_token", "pad_token", "cls_token", "mask_token")}
    (folder / "special_tokens_map.json").write_text(json.dumps(special, indent=1) + "\n", encoding="utf-8")


def folder_fingerprint(folder: str | os.PathLike[str]) -> str:
    """The weights fingerprint of a saved model folder (read back through transformers)."""
    from .loading import import_backend, quiet_loading

    torch, transformers = import_backend()
    try:
        with quiet_loading(transformers):
            model = transformers.AutoModel.from_pretrained(str(folder))
    except (OSError, ValueError) as err:
        raise InputError(f"cannot read the model: {str(err).splitlines()[0]}", str(folder)) from None
    return weights_fingerprint({name: p.detach().cpu().numpy() for name, p in model.named_parameters()})
