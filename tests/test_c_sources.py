"""The optional C extensions' sources: code run without the GIL (between Py_BEGIN_ALLOW_THREADS
and Py_END_ALLOW_THREADS, and the file's functions it calls, transitively) touches no Python
object and no allocator that needs the GIL: PyMem_Malloc/PyMem_Free there crashed every M2 and
ERRANT score on Python 3.12+ (a segmentation fault; 3.10 and 3.11 happened to survive it), where
PyMem_RawMalloc/PyMem_RawFree are meant for it."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

SOURCES = sorted((Path(__file__).resolve().parent.parent / "gecmetrics" / "core").glob("*.c"))
NO_GIL = re.compile(r"Py_BEGIN_ALLOW_THREADS(.*?)Py_END_ALLOW_THREADS", re.S)
FUNCTION = re.compile(r"^(?:static\s+)?(?:inline\s+)?[A-Za-z_][\w \t\*]*?\b(\w+)\s*\(([^;{]*?)\)\s*\{", re.M)
CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
NEEDS_GIL = re.compile(r"\bPy(?!_ssize_t\b|_BEGIN_ALLOW_THREADS\b|_END_ALLOW_THREADS\b|Mem_Raw)[A-Z_a-z]\w*\s*\(")


def bodies(text: str) -> dict[str, str]:
    """Each function defined in the file: its body, braces matched."""
    found = {}
    for match in FUNCTION.finditer(text):
        depth, end = 0, match.end() - 1
        for end in range(match.end() - 1, len(text)):
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            if depth == 0:
                break
        found[match.group(1)] = text[match.end():end]
    return found


def without_gil(text: str) -> list[tuple[str, str]]:
    """(where, code) of every region run without the GIL and every function of the file it reaches."""
    functions, seen = bodies(text), set()
    regions = [("a Py_BEGIN_ALLOW_THREADS block", code) for code in NO_GIL.findall(text)]
    for _, code in list(regions):
        pending = [name for name in CALL.findall(code) if name in functions]
        while pending:
            name = pending.pop()
            if name not in seen:
                seen.add(name)
                regions.append((f"{name}()", functions[name]))
                pending += [callee for callee in CALL.findall(functions[name]) if callee in functions]
    return regions


@pytest.mark.parametrize("source", SOURCES, ids=lambda path: path.name)
def test_code_run_without_the_gil_calls_no_python_api(source: Path) -> None:
    text = re.sub(r"/\*.*?\*/|//[^\n]*", "", source.read_text(encoding="utf-8"), flags=re.S)
    found = [f"{where}: {call.group(0)}" for where, code in without_gil(text) for call in NEEDS_GIL.finditer(code)]
    assert found == []


def test_the_check_sees_an_allocation_in_a_called_function() -> None:
    text = ("static int inner(int n) { void *p = PyMem_Malloc(n); PyMem_Free(p); return 0; }\n"
            "static int outer(int n) { return inner(n); }\n"
            "static PyObject *f(PyObject *m) { int s;\n Py_BEGIN_ALLOW_THREADS\n s = outer(3);\n Py_END_ALLOW_THREADS\n"
            " return PyLong_FromLong(s); }\n")
    calls = [call.group(0) for _, code in without_gil(text) for call in NEEDS_GIL.finditer(code)]
    assert calls == ["PyMem_Malloc(", "PyMem_Free("]
