"""Run an original script that hard-codes CUDA on a machine without a GPU, leaving its code as
it is: ``python _on_cpu.py SCRIPT ARGS...`` runs SCRIPT as ``python SCRIPT ARGS...`` would (as
``__main__``, its folder first on ``sys.path``), and ``python _on_cpu.py -c CODE ARGS...`` as
``python -c``, after making torch's CUDA moves stay on the CPU.

SOME (github kokeman/SOME, ``some.py``) moves its models and batches to ``torch.device('cuda')``
and IMPARA (github gotutiyan/IMPARA, ``impara.py``) calls ``.cuda()`` on its model; neither has
a CPU option. Here ``Module.cuda()`` returns the module unchanged, and ``Module.to`` /
``Tensor.to`` given a CUDA device move to the CPU instead; nothing else changes, so the scripts
compute what they compute on a GPU, on the CPU (gec-metrics' SOME also calls ``.cuda()`` even
with ``no_cuda``). Used for the oracle numbers in tests/data and by
benchmarks/models_some_impara.py.
"""
from __future__ import annotations

import os
import runpy
import sys


def _is_cuda(value: object) -> bool:
    import torch

    if isinstance(value, torch.device):
        return value.type == "cuda"
    return isinstance(value, str) and value.split(":")[0] == "cuda"


def keep_on_cpu() -> None:
    """Send torch's CUDA moves (Module.cuda, Module.to / Tensor.to with a CUDA device) to the CPU."""
    import torch

    module_to, tensor_to = torch.nn.Module.to, torch.Tensor.to

    def to_cpu(original):
        def to(self, *args, **kwargs):
            args = tuple("cpu" if _is_cuda(arg) else arg for arg in args)
            if _is_cuda(kwargs.get("device")):
                kwargs["device"] = "cpu"
            return original(self, *args, **kwargs)
        return to

    torch.nn.Module.cuda = lambda self, device=None: self
    torch.nn.Module.to = to_cpu(module_to)
    torch.Tensor.to = to_cpu(tensor_to)


def main() -> None:
    if len(sys.argv) < 2 or (sys.argv[1] == "-c" and len(sys.argv) < 3):
        sys.exit("usage: python _on_cpu.py SCRIPT [ARGS...]  |  python _on_cpu.py -c CODE [ARGS...]")
    keep_on_cpu()
    if sys.argv[1] == "-c":  # like python -c: CODE runs as __main__ with sys.argv = ['-c', ARGS...]
        code = sys.argv[2]
        sys.argv = ["-c", *sys.argv[3:]]
        exec(compile(code, "<string>", "exec"), {"__name__": "__main__"})
        return
    script = os.path.abspath(sys.argv[1])
    sys.argv = [script, *sys.argv[2:]]
    sys.path.insert(0, os.path.dirname(script))
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
