"""Allow-lists of model config fields: when a forward pass written here (``encoder.py``,
``direct_bert.py``, ``gpt2.py``) may stand in for transformers' own model.

A direct forward pass is used only for a config.json every field of which is in its allow-list
with a value the list accepts; any other field or value (a checkpoint from another transformers
version, another architecture, another activation or norm, rotary or relative positions) sends
the model through transformers. Each allow-list is checked field by field against transformers'
model on the same weights: ``tests/test_models_direct_fields.py`` varies every field it names
(fields the forward pass reads, and fields it may ignore because they change nothing in
evaluation: dropout, initialisation, generation defaults, label names) and compares the
outputs; a test fails when a field is listed without a variation there.

A config.json must also describe the weights it comes with (:func:`check_weights`): the direct
passes read their sizes from the weights, so a config that says other sizes, or more layers than
the weights hold, would give a number from a model transformers refuses to load.

A rule is a predicate on the field's value; :data:`ANY` marks a field whose value cannot
change the forward pass in evaluation (the test still varies it).
"""
from __future__ import annotations

import math
from typing import Any, Callable, Mapping

Rule = Callable[[Any], bool]


def ANY(value: Any) -> bool:  # noqa: N802 (a constant-like rule)
    """Any value: the field changes nothing in evaluation (dropout, initialisation, names)."""
    return True


def equal_to(*allowed: Any) -> Rule:
    """The value is one of ``allowed`` (compared by type too: ``False`` is not ``0``)."""
    def rule(value: Any) -> bool:
        return any(type(value) is type(choice) and value == choice for choice in allowed)
    rule.__doc__ = f"one of {allowed!r}"
    return rule


def integer(minimum: int) -> Rule:
    """An integer (not a bool) of at least ``minimum``."""
    def rule(value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and value >= minimum
    rule.__doc__ = f"an integer >= {minimum}"
    return rule


def optional(inner: Rule) -> Rule:
    """None, or a value ``inner`` accepts."""
    def rule(value: Any) -> bool:
        return value is None or inner(value)
    rule.__doc__ = f"None or {inner.__doc__}"
    return rule


def positive_number(value: Any) -> bool:
    """A finite number > 0 (a layer norm's epsilon)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value > 0


def number(value: Any) -> bool:
    """A finite number (a dropout probability, an initialiser's range)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def names_starting(prefix: str) -> Rule:
    """A list of class names each starting with ``prefix`` (``architectures``)."""
    def rule(value: Any) -> bool:
        return isinstance(value, list) and all(isinstance(name, str) and name.startswith(prefix) for name in value)
    rule.__doc__ = f"a list of {prefix}* class names"
    return rule


def empty(value: Any) -> bool:
    """An empty container or None (``pruned_heads``: any pruned head changes the weights' shapes)."""
    return value is None or (isinstance(value, (dict, list)) and not value)


def label_map(value: Any) -> bool:
    """A mapping of label names (id2label, label2id): names only."""
    return isinstance(value, dict)


GENERATION_LEFTOVERS = ("_num_labels", "bad_words_ids", "decoder_start_token_id", "do_sample", "early_stopping",
                        "length_penalty", "max_length", "min_length", "no_repeat_ngram_size", "num_beams",
                        "num_return_sequences", "repetition_penalty", "temperature", "top_k", "top_p",
                        "task_specific_params", "prefix", "finetuning_task", "xla_device", "use_bfloat16",
                        "torchscript", "output_attentions", "output_hidden_states", "return_dict", "output_past",
                        "gradient_checkpointing", "transformers_version", "_name_or_path", "tokenizer_class",
                        "initializer_range", "use_cache", "bos_token_id", "eos_token_id", "sep_token_id",
                        "problem_type", "id2label", "label2id", "eos_token_ids", "tie_encoder_decoder",
                        "diversity_penalty", "num_beam_groups", "forced_bos_token_id", "forced_eos_token_id",
                        "remove_invalid_values", "return_dict_in_generate", "output_scores",
                        "encoder_no_repeat_ngram_size", "typical_p", "exponential_decay_length_penalty",
                        "suppress_tokens", "begin_suppress_tokens", "cross_attention_hidden_size", "tf_legacy_loss")
"""Fields older transformers wrote into config.json files (transformers 2.x and 3.x dumped every
generation default, output switch and name, as SOME's 2020 models have them; 4.x full dumps add
more): none of them reaches an encoder's or a language model's forward pass in evaluation."""


def leftovers() -> dict[str, Rule]:
    """:data:`GENERATION_LEFTOVERS` as rules: label maps must be mappings, ``output_attentions``
    false (transformers 5 refuses to load a config asking for attentions with its default
    attention), ``return_dict`` true (transformers 5's GPT-2 fails on tuples), the rest any value."""
    rules = {name: (label_map if name in ("id2label", "label2id") else ANY) for name in GENERATION_LEFTOVERS}
    rules["output_attentions"] = equal_to(False)
    rules["return_dict"] = optional(equal_to(True))
    return rules


def refusal(config: Mapping[str, Any], rules: Mapping[str, Rule]) -> str | None:
    """Why a config is not for the direct pass whose allow-list is ``rules`` (the first field
    not listed, or listed with a value the rule refuses), or None when every field passes."""
    if not isinstance(config, Mapping):
        return "no readable config.json"
    for name, value in config.items():
        rule = rules.get(name)
        if rule is None:
            return f"field {name!r} is not in the allow-list"
        if not rule(value):
            return f"{name}={value!r} is not {rule.__doc__ or 'an accepted value'}"
    return None


def config_refusal(config: Any, rules: Mapping[str, Rule], required: tuple[str, ...],
                   heads: tuple[str, str]) -> str | None:
    """Why a config is not for a direct pass: a ``required`` field missing, a field or value
    :func:`refusal` refuses, or a width (``heads[0]``) that the head count (``heads[1]``) does not
    divide; None when it is for it."""
    if not isinstance(config, Mapping):
        return "no readable config.json"
    missing = [name for name in required if name not in config]
    if missing:
        return f"no {missing[0]} in config.json"
    why = refusal(config, rules)
    width, count = heads
    if why is None and config[width] % config[count]:
        why = f"{width} is not a multiple of {count}"
    return why


def check_weights(config: Mapping[str, Any], state: Mapping[str, Any], expected: Mapping[str, tuple[int, ...]],
                  sizes: Mapping[str, tuple[str, int, int]], layers: tuple[str, str]) -> None:
    """:class:`ConfigMismatch` saying why the weights ``state`` (name -> tensor, named as the
    direct pass reads them) are not the model ``config`` describes: transformers refuses such a
    folder (weights it needs missing, or of other shapes), where a direct pass would compute a number from part of
    the model or from weights of other sizes. In order: fewer layers than the config's
    (``layers``: its field and the prefix of the layers' weights; more are left unread, as
    transformers leaves them), a size field other than the weights' (``sizes``: field -> (the
    weight that holds it, its axis, transformers' default when the field is absent)), any other
    weight of a shape other than ``expected`` (name -> shape the config makes)."""
    field, prefix = layers
    present = {name[len(prefix):].split(".", 1)[0] for name in state if name.startswith(prefix)}
    count = len([index for index in present if index.isdigit()])
    if count < config[field]:
        raise ConfigMismatch(f"{field} is {config[field]} in config.json, the weights hold {count} "
                             f"layer{'' if count == 1 else 's'}")
    for size, (weight, axis, default) in sizes.items():
        value = config.get(size)
        value = default if value is None else value
        shape = tuple(state[weight].shape) if weight in state else ()
        if len(shape) > axis and shape[axis] != value:
            absent = "" if config.get(size) is not None else " (not set: transformers' default)"
            raise ConfigMismatch(f"{size} is {value} in config.json{absent}, {shape[axis]} in the weights "
                                 f"({weight} is {shown_shape(shape)})")
    for name, shape in expected.items():
        if name in state and tuple(state[name].shape) != tuple(shape):
            held = shown_shape(tuple(state[name].shape))
            raise ConfigMismatch(f"{name} is {held} in the weights, {shown_shape(shape)} by config.json")


def shown_shape(shape: tuple[int, ...]) -> str:
    """A shape as ``64x128``."""
    return "x".join(str(size) for size in shape) or "a scalar"


class ConfigMismatch(ValueError):
    """A model folder whose config.json contradicts its weights (:func:`check_weights`): the
    loaders make it one line naming the folder."""

    def __init__(self, why: str) -> None:
        super().__init__(f"config.json does not match the weights: {why}")
