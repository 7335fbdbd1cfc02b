"""PyInstaller hook for ``openvino_genai``.

Its compiled module imports ``openvino_tokenizers`` at run time (for the tokenizer extension), which no
bytecode scan can see. Its shared library is collected explicitly so that it stays next to the module.
"""

from PyInstaller.utils.hooks import collect_dynamic_libs

LIB_PATTERNS = ["lib*.so", "lib*.so.*", "*.dll", "*.dylib"]

hiddenimports = ["openvino_tokenizers"]
binaries = collect_dynamic_libs("openvino_genai", search_patterns=LIB_PATTERNS)
