"""The markers CI selects by: ``.ci/run``'s second pass runs ``-m models`` with torch installed,
so a model test that lost its marker would run in neither pass (the first has no torch)."""
from __future__ import annotations


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
