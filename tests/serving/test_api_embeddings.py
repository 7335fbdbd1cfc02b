"""``POST /v1/embeddings`` on `eagle-chat serve --embedder` (tiny embedder), with the official `openai` client."""

from __future__ import annotations

import base64
import time

import httpx
import numpy as np
import openai
import psutil
import pytest

from tests.conftest import MODELS_DIR
from tests.serving.served import API_KEY, serve

EMBEDDER = MODELS_DIR / "tiny-embedder"
MODEL = "tiny-embedder"
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    with serve(tmp_path_factory.mktemp("served-embed"), "--embedder", str(EMBEDDER), draft=False) as server:
        yield server


@pytest.fixture
def client(served):
    with openai.OpenAI(base_url=served.url, api_key=API_KEY, max_retries=0, timeout=120) as c:
        yield c


@pytest.fixture(scope="module")
def reference():
    from eagle_chat.core.documents.embedder import OpenVinoEmbedder

    return OpenVinoEmbedder(EMBEDDER)


def test_models_lists_the_embedder_beside_the_chat_model(client):
    models = {m.id: m for m in client.models.list().data}
    assert set(models) == {"tiny-qwen3", MODEL}
    assert models[MODEL].model_extra["eagle_chat"] == {"kind": "embedding", "dimensions": 64}
    assert client.models.retrieve(MODEL).id == MODEL


def test_a_string_and_a_list_give_the_embedders_vectors(client, reference):
    one = client.embeddings.create(model=MODEL, input="The lighthouse keeper feeds puffins.",
                                   encoding_format="float")
    assert one.object == "list" and one.model == MODEL and len(one.data) == 1
    vector = np.array(one.data[0].embedding, dtype=np.float32)
    assert vector.shape == (64,) and np.isclose(np.linalg.norm(vector), 1.0, atol=1e-3)
    assert np.allclose(vector, reference.embed_documents(["The lighthouse keeper feeds puffins."])[0], atol=1e-4)
    assert one.usage.prompt_tokens == one.usage.total_tokens == reference.count_tokens(
        ["The lighthouse keeper feeds puffins."])[0]

    texts = ["alpha beta", "gamma", "平安 北京"]
    many = client.embeddings.create(model=MODEL, input=texts)  # the SDK asks for base64 and decodes it
    assert [d.index for d in many.data] == [0, 1, 2]
    got = np.array([d.embedding for d in many.data], dtype=np.float32)
    assert np.allclose(got, reference.embed_documents(texts), atol=1e-4)


def test_base64_is_little_endian_float32(served, reference):
    reply = httpx.post(f"{served.url}/embeddings", headers={"Authorization": f"Bearer {API_KEY}"},
                       json={"model": MODEL, "input": ["hello there"], "encoding_format": "base64"}, timeout=60)
    assert reply.status_code == 200
    raw = base64.b64decode(reply.json()["data"][0]["embedding"])
    assert np.allclose(np.frombuffer(raw, dtype="<f4"), reference.embed_documents(["hello there"])[0], atol=1e-4)


@pytest.mark.parametrize("body, status, param", [
    ({"model": "text-embedding-3-small", "input": "x"}, 404, "model"),
    ({"model": MODEL, "input": [[1, 2, 3]]}, 400, "input"),
    ({"model": MODEL, "input": []}, 400, "input"),
    ({"model": MODEL, "input": ""}, 400, "input"),
    ({"model": MODEL, "input": "x", "encoding_format": "int8"}, 400, "encoding_format"),
    ({"model": MODEL, "input": "x", "dimensions": 32}, 400, "dimensions"),
    ({"input": "x"}, 400, "model"),
])
def test_bad_requests_are_refused_in_openais_shape(served, body, status, param):
    reply = httpx.post(f"{served.url}/embeddings", headers={"Authorization": f"Bearer {API_KEY}"}, json=body,
                       timeout=60)
    assert reply.status_code == status
    error = reply.json()["error"]
    assert error["param"] == param and error["message"]


def test_the_embedder_runs_in_a_child_and_comes_back_after_a_crash(served, client):
    children = [p for p in psutil.Process(served.process.pid).children()
                if any("tiny-embedder" in m.path for m in p.memory_maps())]  # OpenVINO maps the weights
    assert len(children) == 1  # the embedder's own process (the engine host is another)
    assert not any("tiny-embedder" in m.path for m in psutil.Process(served.process.pid).memory_maps())
    children[0].kill()
    deadline = time.monotonic() + 10
    while children[0].is_running() and children[0].status() != psutil.STATUS_ZOMBIE:  # the server reaps it
        assert time.monotonic() < deadline
        time.sleep(0.05)
    again = client.embeddings.create(model=MODEL, input="still there?")
    assert len(again.data[0].embedding) == 64


def test_without_an_embedder_the_endpoint_is_a_404_saying_how_to_get_one(tmp_path):
    with serve(tmp_path / "plain", draft=False) as plain:
        reply = httpx.post(f"{plain.url}/embeddings", headers={"Authorization": f"Bearer {API_KEY}"},
                           json={"model": MODEL, "input": "x"}, timeout=60)
        listed = httpx.get(f"{plain.url}/models", headers={"Authorization": f"Bearer {API_KEY}"}, timeout=60)
    assert reply.status_code == 404  # a 5xx would say "try later"; this server will never have it
    assert reply.json()["error"]["code"] == "embeddings_not_served"
    assert "--embedder DIR" in reply.json()["error"]["message"]
    assert [m["id"] for m in listed.json()["data"]] == ["tiny-qwen3"]


def test_a_pulled_embedder_is_served_by_its_name_with_its_registered_pooling(tmp_path):
    """`serve --embedder NAME` takes a document model registered by `models pull`, run as registered (here CLS
    pooling, which the folder alone cannot tell)."""
    import shutil

    from eagle_chat.core.documents.embedder import OpenVinoEmbedder
    from eagle_chat.core.models.document_models import DocumentModel, DocumentModelRegistry

    home = tmp_path / "home"
    folder = shutil.copytree(EMBEDDER, home / "data" / "models" / "named-embedder")
    DocumentModelRegistry(home / "data" / "document-models.json").add(DocumentModel(
        name="named-embedder", kind="embedding", model_dir=str(folder), pooling="cls", owned=True))
    with serve(home, "--embedder", "named-embedder", draft=False) as server:
        with openai.OpenAI(base_url=server.url, api_key=API_KEY, max_retries=0, timeout=120) as c:
            assert "named-embedder" in [m.id for m in c.models.list().data]
            vector = c.embeddings.create(model="named-embedder", input=["one text"]).data[0].embedding
    expected = OpenVinoEmbedder(folder, pooling="cls").embed_documents(["one text"])[0]
    assert np.allclose(vector, expected, atol=1e-4)
