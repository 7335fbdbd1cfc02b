"""PyInstaller hook for ``openvino`` (neither PyInstaller nor pyinstaller-hooks-contrib ships one).

OpenVINO loads its device plugins (``libopenvino_intel_cpu_plugin`` …) and model frontends
(``libopenvino_ir_frontend.so.2641`` …) at run time from the folder holding ``libopenvino``; nothing links
to them, so PyInstaller's dependency scan misses them. Collect every dynamic library of the package,
including versioned Linux names (``lib*.so.*``), keeping the ``openvino/libs/`` layout: openvino's
``__init__`` only registers that folder (as a DLL directory on Windows) when it exists.

``cache.json`` next to the libraries is the GPU plugin's kernel tuning cache.

The model-conversion tools (``openvino.tools``) and the usage-telemetry client are not collected: the
first is not needed to run IR models; the second would send a usage event on ``import openvino``
(OpenVINO falls back to a stub when it is missing).
"""

from PyInstaller.utils.hooks import collect_data_files, collect_dynamic_libs

LIB_PATTERNS = ["lib*.so", "lib*.so.*", "*.dll", "*.dylib"]

binaries = collect_dynamic_libs("openvino", search_patterns=LIB_PATTERNS)
datas = collect_data_files("openvino", includes=["libs/cache.json"])
excludedimports = ["openvino_telemetry", "openvino.tools"]
