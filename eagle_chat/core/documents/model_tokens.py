"""Text measured in the loaded model's own tokens, for whether whole documents fit its context.

The estimate (:func:`~eagle_chat.core.documents.embedder.estimate_tokens`: ~4 Latin letters or one CJK character
a token) is generous for Qwen3's tokenizer but not for every model: the bundled tiny model's byte-level
tokenizer takes 3 tokens per Chinese character and 1.9 times the estimate for English, so documents
"fitting" by the estimate overflowed its context. The target folder's ``openvino_tokenizer.xml`` is loaded on
its own (GenAI's ``Tokenizer``: no weights, a few MB), once per folder, in the process that asks.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger(__name__)


class ModelTokens:
    def __init__(self) -> None:
        self._folder: Path | None = None
        self._tokenizer = None

    def counter(self, target_dir: Path | None) -> Callable[[str], int] | None:
        """A function counting a text's tokens as the model in ``target_dir`` reads them (special tokens left
        out), or None when there is no tokenizer to load there (a remote server, a broken folder)."""
        if target_dir is None or not (Path(target_dir) / "openvino_tokenizer.xml").is_file():
            return None
        if self._folder != Path(target_dir):
            import openvino_genai as ov_genai

            try:
                self._tokenizer = ov_genai.Tokenizer(str(target_dir))
            except RuntimeError as error:
                log.warning("the model's tokenizer in %s could not be loaded (%s); documents are measured by "
                            "estimate", target_dir, str(error).strip().splitlines()[:1])
                self._tokenizer = None
            self._folder = Path(target_dir)
        tokenizer = self._tokenizer
        if tokenizer is None:
            return None
        return lambda text: int(tokenizer.encode(text, add_special_tokens=False).input_ids.get_shape()[1])
