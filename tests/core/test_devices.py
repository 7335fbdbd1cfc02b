import os

import pytest

from eagle_chat.core.generation.devices import (
    DeviceError,
    DeviceInfo,
    NpuOptions,
    device_choices,
    list_devices,
    pipeline_properties,
    resolve_device,
)


def test_real_cpu_is_listed_with_a_name():
    devices = list_devices()
    cpu = [d for d in devices if d.kind == "CPU"]
    assert cpu and cpu[0].full_name


def test_absent_devices_are_named_with_a_reason():
    reasons = device_choices([DeviceInfo("CPU", "CPU", "x86")])
    assert reasons["CPU"] is None
    assert "GPU" in reasons["GPU"] and "NPU" in reasons["NPU"]
    with pytest.raises(DeviceError, match="NPU is not available"):
        resolve_device("npu", [DeviceInfo("CPU", "CPU", "x86")])


def test_npu_is_passed_as_exactly_NPU_and_gpu_by_kind():
    devices = [DeviceInfo("CPU", "CPU", "c"), DeviceInfo("GPU.0", "GPU", "g0"), DeviceInfo("GPU.1", "GPU", "g1"),
               DeviceInfo("NPU", "NPU", "n")]
    assert resolve_device("npu", devices) == "NPU"
    assert resolve_device("GPU", devices) == "GPU"
    with pytest.raises(DeviceError, match="Unknown device"):
        resolve_device("TPU", devices)


def test_npu_properties(tmp_path):
    props = pipeline_properties("NPU", cache_dir=tmp_path, npu=NpuOptions(2048, 256, "DRIVER"), precision="f32")
    assert props == {
        "CACHE_DIR": str(tmp_path),
        "MAX_PROMPT_LEN": 2048,
        "MIN_RESPONSE_LEN": 256,
        "NPU_COMPILER_TYPE": "DRIVER",
    }
    assert "LLM_MIN_RESPONSE_LEN" not in props  # a wrong spelling seen in circulating samples


def test_npu_defaults_and_cpu_gpu_precision(tmp_path):
    # the reply reserve covers the app's default 512 new tokens plus two EAGLE-3 verification windows
    assert pipeline_properties("NPU") == {"MAX_PROMPT_LEN": 1024, "MIN_RESPONSE_LEN": 576}
    # bounded per-shape primitive cache: every distinct prompt length is a new shape (devices.py)
    assert pipeline_properties("CPU") == {"CPU_RUNTIME_CACHE_CAPACITY": 50}
    assert pipeline_properties("GPU.1", precision="f32") == {
        "INFERENCE_PRECISION_HINT": "f32",
        "KV_CACHE_PRECISION": "f32",
    }


def test_the_engine_host_caps_onednns_primitive_cache_before_openvino_builds_anything(monkeypatch, tmp_path):
    """With oneDNN's default 1,024 cached primitives, distinct histories grew the host by +128 MB over 200
    requests (benchmarks/api_memory.py); capped at 64, +32 MB. The host sets it first thing; a user's value wins."""
    from eagle_chat.core.generation import devices
    from eagle_chat.core.hosting import host_process

    monkeypatch.delenv("ONEDNN_PRIMITIVE_CACHE_CAPACITY", raising=False)
    seen = {}

    class FakeHost:
        def __init__(self, conn, stop):
            seen["at_start"] = os.environ.get("ONEDNN_PRIMITIVE_CACHE_CAPACITY")

        def serve(self):
            pass

    monkeypatch.setattr(host_process, "Host", FakeHost)
    monkeypatch.setattr(host_process, "_log_to", lambda path: None)
    host_process.run(None, None, str(tmp_path / "engine.log"))
    assert seen["at_start"] == str(devices.ONEDNN_PRIMITIVE_CACHE_CAPACITY) == "64"
    monkeypatch.setenv("ONEDNN_PRIMITIVE_CACHE_CAPACITY", "1024")
    devices.limit_cpu_caches()
    assert os.environ["ONEDNN_PRIMITIVE_CACHE_CAPACITY"] == "1024"
