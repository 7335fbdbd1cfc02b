"""Pure Python + OpenVINO: devices, model folders, the generation engine, metrics, storage, benchmarks.

Nothing in this package imports Qt (tests/core/test_layering.py checks it).
"""
