#!/usr/bin/env python3
"""Build a tiny *real* text embedder and reranker for EagleChat's document tests, offline.

Produces, under ``--out`` (``tests/models`` in the repo):

* ``tiny-embedder/``  OpenVINO IR (fp16) of a ~0.2M-parameter BERT (2 layers, hidden 64), exported with
                      ``optimum-cli export openvino --task feature-extraction``: what ``TextEmbeddingPipeline``
                      loads (CLS or mean pooling).
* ``tiny-reranker/``  The same encoder with a one-logit classification head, exported with
                      ``--task text-classification``: what ``TextRerankPipeline`` loads. Its tokenizer outputs
                      ``token_type_ids`` (a BERT WordPiece tokenizer does; the reranker refuses one that does
                      not).

The weights are random (seeded): the vectors are not meaningful beyond "similar token bags give similar
vectors", which is all the tests need — they check plumbing (loading, pooling, dimensions, storage, ranking
fused with BM25), not retrieval quality. The WordPiece vocabulary (lower-cased, 4,096 pieces) is trained on
the CPython standard library sources on this disk.

Run through ``tools/build_tiny_models.py --embedder --out tests/models`` or directly::

    python tools/build_tiny_embedder.py --out tests/models

Packages: the ``build-models`` extra (see build_tiny_models.py).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

EMBEDDER_DIR = "tiny-embedder"
RERANKER_DIR = "tiny-reranker"
VOCAB_SIZE = 4096
HIDDEN = 64
MAX_POSITIONS = 512

_OPTIMUM_CLI = ("import sys; sys.modules['openvino_telemetry'] = None; "
                "from optimum.commands.optimum_cli import main; sys.argv[0] = 'optimum-cli'; sys.exit(main())")


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def corpus_files(limit_mb: int = 4) -> list[str]:
    """Standard-library sources, read in a fixed (sorted) order, up to ``limit_mb``."""
    root = Path(sysconfig.get_paths()["stdlib"])
    files, total = [], 0
    for path in sorted(root.rglob("*.py")):
        if "site-packages" in path.parts or "test" in path.parts:
            continue
        try:
            size = path.stat().st_size
        except OSError:
            continue
        files.append(str(path))
        total += size
        if total > limit_mb * 1_000_000:
            break
    return files


def train_tokenizer():
    from tokenizers import BertWordPieceTokenizer
    from transformers import BertTokenizerFast

    tok = BertWordPieceTokenizer(lowercase=True, handle_chinese_chars=True, strip_accents=None)
    tok.train(corpus_files(), vocab_size=VOCAB_SIZE, min_frequency=2, show_progress=False,
              special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"])
    # Built from the trained object: in transformers 5, ``BertTokenizerFast(vocab_file=…)`` silently keeps only
    # the special tokens (a 5-piece vocabulary that turns every word into [UNK]).
    fast = BertTokenizerFast(tokenizer_object=tok._tokenizer, unk_token="[UNK]", sep_token="[SEP]",
                             pad_token="[PAD]", cls_token="[CLS]", mask_token="[MASK]", do_lower_case=True,
                             model_max_length=MAX_POSITIONS)
    if len(fast) != tok.get_vocab_size():
        sys.exit(f"error: the tokenizer has {len(fast)} pieces, expected {tok.get_vocab_size()}")
    return fast


def build_hf(out: Path, seed: int) -> tuple[Path, Path, int]:
    import torch
    from transformers import BertConfig, BertForSequenceClassification, BertModel

    torch.manual_seed(seed)
    tokenizer = train_tokenizer()
    config = BertConfig(vocab_size=len(tokenizer), hidden_size=HIDDEN, num_hidden_layers=2,
                        num_attention_heads=2, intermediate_size=128, max_position_embeddings=MAX_POSITIONS,
                        type_vocab_size=2, num_labels=1)
    encoder = BertModel(config, add_pooling_layer=False).eval()
    embedder_hf = out / "hf-embedder"
    encoder.save_pretrained(embedder_hf)
    tokenizer.save_pretrained(embedder_hf)
    torch.manual_seed(seed + 1)
    reranker = BertForSequenceClassification(config).eval()
    reranker.bert.load_state_dict(encoder.state_dict(), strict=False)
    reranker_hf = out / "hf-reranker"
    reranker.save_pretrained(reranker_hf)
    tokenizer.save_pretrained(reranker_hf)
    return embedder_hf, reranker_hf, sum(p.numel() for p in encoder.parameters())


def export(model_dir: Path, task: str, out_dir: Path) -> None:
    cmd = [sys.executable, "-c", _OPTIMUM_CLI, "export", "openvino", "--model", str(model_dir),
           "--task", task, "--weight-format", "fp16", str(out_dir)]
    log("  $ optimum-cli " + " ".join(cmd[3:]))
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        sys.stderr.write(proc.stdout[-5000:] + proc.stderr[-5000:])
        sys.exit(f"error: optimum-cli export of {model_dir} failed (exit {proc.returncode})")
    for name in ("openvino_model.xml", "openvino_model.bin", "openvino_tokenizer.xml"):
        if not (out_dir / name).is_file():
            sys.exit(f"error: optimum-cli did not write {out_dir / name}")
    config = out_dir / "config.json"
    data = json.loads(config.read_text(encoding="utf-8"))
    data.pop("_name_or_path", None)
    config.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def verify(out: Path) -> None:
    import numpy as np
    import openvino_genai as ov_genai

    cfg = ov_genai.TextEmbeddingPipeline.Config()
    cfg.pooling_type = ov_genai.TextEmbeddingPipeline.PoolingType.MEAN
    cfg.normalize = True
    pipe = ov_genai.TextEmbeddingPipeline(str(out / EMBEDDER_DIR), "CPU", cfg)
    docs = np.array(pipe.embed_documents(["the cat sat on the mat", "import os and sys", "def main(): pass"]))
    query = np.array(pipe.embed_query("import sys"))
    log(f"  embedder: {docs.shape[1]} dimensions, query·docs = {np.round(docs @ query, 3).tolist()}")
    rcfg = ov_genai.TextRerankPipeline.Config()
    rcfg.top_n = 3
    rerank = ov_genai.TextRerankPipeline(str(out / RERANKER_DIR), "CPU", rcfg)
    log(f"  reranker: {rerank.rerank('import sys', ['the cat', 'import os and sys', 'def main'])}")


def build(out: Path, seed: int = 0) -> None:
    import shutil

    start = time.monotonic()
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="tiny-embedder-") as tmp:
        embedder_hf, reranker_hf, params = build_hf(Path(tmp), seed)
        log(f"encoder: {params / 1e6:.2f}M parameters, vocabulary {VOCAB_SIZE}")
        for hf, task, name in ((embedder_hf, "feature-extraction", EMBEDDER_DIR),
                               (reranker_hf, "text-classification", RERANKER_DIR)):
            staged = Path(tmp) / ("ov-" + name)
            export(hf, task, staged)
            target = out / name
            if target.exists():
                shutil.rmtree(target)
            shutil.copytree(staged, target)
    verify(out)
    sizes = {name: sum(p.stat().st_size for p in (out / name).rglob("*") if p.is_file()) / 1e6
             for name in (EMBEDDER_DIR, RERANKER_DIR)}
    log(f"built in {time.monotonic() - start:.0f} s: "
        + ", ".join(f"{k} {v:.2f} MB" for k, v in sizes.items()))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    build(args.out, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
