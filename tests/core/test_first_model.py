"""The real model offered on first start: the smallest pair that can be fetched here, on the best device."""

from __future__ import annotations

from eagle_chat.core.models.catalog import load_catalog
from eagle_chat.core.models.first_model import suggest_first_model


def test_the_smallest_checked_pair_on_the_cpu():
    first = suggest_first_model(load_catalog(), ["CPU"])
    assert first.entry.name == "qwen3-1.7b" and first.device == "CPU"
    assert first.approx_bytes == first.entry.target.approx_bytes + first.entry.draft.approx_bytes


def test_a_gpu_is_preferred_and_the_npu_only_with_an_npu_build():
    assert suggest_first_model(load_catalog(), ["CPU", "GPU"]).device == "GPU"
    npu_only = suggest_first_model(load_catalog(), ["NPU"])
    assert npu_only.entry.npu_target is not None and npu_only.device == "NPU"


def test_a_pair_that_cannot_be_fetched_here_gives_way():
    catalog = load_catalog()
    first = suggest_first_model(catalog, ["CPU"], problem=lambda e: "no exporter" if e.needs_export else None)
    assert not first.entry.needs_export
    assert suggest_first_model(catalog, []) is None


def test_the_first_run_card_recommends_the_smallest_verified_pair_on_a_default_install():
    """With the converter, no built-in entry is held back for want of optimum-intel: the card offers Qwen3 1.7B
    (verified, the smallest), not the unverified pre-exported pair."""
    from eagle_chat.core.acquisition.pulls import export_problem
    from eagle_chat.core.models.catalog import load_catalog
    from eagle_chat.core.models.first_model import suggest_first_model

    suggestion = suggest_first_model(load_catalog(), ["CPU"], export_problem)
    assert suggestion is not None and suggestion.entry.name == "qwen3-1.7b"
    assert not suggestion.entry.unverified
