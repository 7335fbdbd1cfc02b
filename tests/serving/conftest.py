"""One `eagle-chat serve` (tiny pair, f32, with an API key) shared by this folder's tests."""

from __future__ import annotations

import pytest

from tests.serving.served import API_KEY, serve


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    with serve(tmp_path_factory.mktemp("served")) as server:
        yield server


@pytest.fixture
def client(served):
    import openai

    with openai.OpenAI(base_url=served.url, api_key=API_KEY, max_retries=0, timeout=120) as c:
        yield c
