"""PyInstaller hook for ``openvino_tokenizers``.

The extension library must land in ``openvino_tokenizers/lib/``: the package looks for it there, relative
to its own ``__init__``. When it is missing the error is a misleading "OpenVINO and OpenVINO Tokenizers
versions are not binary compatible" or ``Cannot load library "libopenvino_tokenizers.so"``.

Tokenizer *conversion* (Hugging Face → OpenVINO) imports transformers/tiktoken/sentencepiece inside
functions; running converted tokenizers needs none of them, so they are kept out of the bundle.
"""

from PyInstaller.utils.hooks import collect_dynamic_libs

LIB_PATTERNS = ["lib*.so", "lib*.so.*", "*.dll", "*.dylib"]

binaries = collect_dynamic_libs("openvino_tokenizers", search_patterns=LIB_PATTERNS)
excludedimports = ["transformers", "tiktoken", "sentencepiece", "torch", "tokenizers"]
