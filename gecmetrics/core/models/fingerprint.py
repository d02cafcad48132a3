"""The weights fingerprint every model-based metric signs with and keys its cached values by:
SHA-256 over the parameters (name, shape, float32 bytes) in name order. It identifies the
weights whatever file format stored them (safetensors or a PyTorch pickle), and needs nothing
but NumPy, so the model loaders and the tiny-model builders share one definition.
"""
from __future__ import annotations

import hashlib
from typing import Any, Mapping


def weights_fingerprint(state: Mapping[str, Any]) -> str:
    """SHA-256 (64 hex digits) over ``state`` (name -> array-like), in name order: each
    parameter's ``name:shape`` line, then its float32 bytes."""
    import numpy as np

    digest = hashlib.sha256()
    for name in sorted(state):
        array = np.ascontiguousarray(np.asarray(state[name], dtype=np.float32))
        digest.update(f"{name}:{array.shape}\n".encode("utf-8"))
        digest.update(array.tobytes())
    return digest.hexdigest()


def tensors_fingerprint(state: Mapping[str, Any]) -> str:
    """:func:`weights_fingerprint` of torch tensors (any dtype or device), read as float32."""
    return weights_fingerprint({name: tensor.detach().float().cpu().numpy() for name, tensor in state.items()})
