"""The markers CI selects by: ``.ci/run``'s second pass runs ``-m models`` with torch installed,
so a model test that lost its marker would run in neither pass (the first has no torch)."""
from __future__ import annotations

import inspect

import pytest

from tests.conftest import TORCH_FIXTURES, TORCH_SKIPS


def test_each_test_module_of_the_model_metrics_is_marked_models(request):
    items = request.session.items
    modules = {item.module.__name__.rpartition(".")[2]: item for item in items}
    for name in ("test_pt_model", "test_models_metrics", "test_llm_local"):
        if name in modules:  # a run of chosen files
            assert modules[name].get_closest_marker("models") is not None, name
    if "test_markers" in modules and len(modules) > 1:
        assert any(item.get_closest_marker("models") is None for item in items)


def test_reproduction_and_slow_markers_are_given(request):
    for item in request.session.items:
        if "shared_data" in getattr(item, "fixturenames", ()):
            assert item.get_closest_marker("reproduction") is not None, item.nodeid
    assert request.node.get_closest_marker("slow") is None


def test_every_test_that_skips_without_torch_is_marked_models(request):
    """Outside the model modules too: test_cache_pt (module-level skip), test_rewards' model
    tests (function-level), test_one_shape's model metric (function-level), tests on the tiny
    BERT fixture; none of them ran in CI before they were marked."""
    items = request.session.items
    by_module: dict[str, list] = {}
    for item in items:
        by_module.setdefault(item.module.__name__.rpartition(".")[2], []).append(item)
    if "test_markers" not in by_module or len(by_module) == 1:
        pytest.skip("a run of chosen files")
    for name in ("test_cache_pt", "test_pt_cli", "test_llm_local"):
        assert all(item.get_closest_marker("models") for item in by_module.get(name, [])), name
    for item in items:
        function = getattr(item, "function", None)
        source = inspect.getsource(function) if function is not None else ""
        if any(call in source for call in TORCH_SKIPS) or TORCH_FIXTURES & set(item.fixturenames):
            assert item.get_closest_marker("models") is not None, item.nodeid
