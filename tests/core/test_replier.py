"""The local engine and a remote server's model are one interface (core.generation.replier.Replier)."""

from __future__ import annotations

import inspect

import pytest

from eagle_chat.core.generation.engine import Engine
from eagle_chat.core.generation.replier import Replier
from eagle_chat.core.serving.remote import RemoteEngine


@pytest.mark.parametrize("cls", [Engine, RemoteEngine])
def test_each_engine_has_the_replier_interface_with_the_same_parameters(cls):
    for name in ("has_draft", "supports_thinking"):
        assert isinstance(inspect.getattr_static(cls, name), property), f"{cls.__name__}.{name}"
    for name in ("generate", "prompt_text", "close"):
        wanted = list(inspect.signature(getattr(Replier, name)).parameters)
        assert list(inspect.signature(getattr(cls, name)).parameters) == wanted, f"{cls.__name__}.{name}"


def test_a_loaded_engine_is_a_replier(tiny_pair):
    from eagle_chat.core.generation.engine import PipelineSpec

    engine = Engine(PipelineSpec(str(tiny_pair[0]), str(tiny_pair[1])))
    try:
        assert isinstance(engine, Replier)
        assert engine.has_draft and engine.spec.draft_dir and engine.plan.device == "CPU" and engine.load_time_ms > 0
    finally:
        engine.close()
