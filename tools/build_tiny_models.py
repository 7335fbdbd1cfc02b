#!/usr/bin/env python3
"""Build tiny but *real* test models for EagleChat, offline, from text already on this disk.

Produces, under ``--out`` (``tests/models`` in the repo):

* ``tiny-qwen3/``               OpenVINO IR (fp16) of a ~1M-parameter Qwen3 target, 10 layers, hidden 64,
                                 plus tokenizer files and openvino_tokenizer/detokenizer.
* ``tiny-qwen3-eagle3/``        OpenVINO IR (fp16) of a matching EAGLE-3 draft head (AngelSlim layout,
                                 ``LlamaForCausalLMEagle3``), same tokenizer files.
* ``hf/tiny-qwen3-eagle3/``     The same draft head in Hugging Face form (config.json, fp16
                                 model.safetensors, tokenizer files), i.e. what one downloads from the hub,
                                 to test the app's own draft-export code path.

Steps: byte-level BPE tokenizer trained on the CPython standard library sources (+ Debian license texts
when present, + the Chinese of the zh_CN gettext catalogues in /usr/share/locale and CPython's cjkencodings
test texts), ChatML template honouring ``enable_thinking`` like Qwen3's, with Qwen3's tools branch; target
pre-trained on that corpus mixed with ChatML samples: a user asks for a stdlib function and the assistant
answers with its code; a user pastes stdlib code and asks for a small change (add a docstring, rename a
variable, add a return annotation, fix a typo) and the assistant answers with the whole code again carrying
it; document Q&A whose answer quotes lines of a source in the prompt; tool exchanges in Qwen3's tools
template (``<tool_call>`` JSON, ``<tool_response>`` results from the corpus — grep hits, file lines, folder
listings, document hits — and a summary quoting them); Chinese chats (translating the catalogues' messages);
draft head distilled on the target's own hidden states (layers 2, 5, 7: the layers OpenVINO GenAI picks
for a 10-layer target) with training-time test, on corpus, ChatML and the target's own continuations of
prompts of every kind above; both exported with ``optimum-cli export openvino``. Like
real EAGLE-3 heads (AngelSlim's draft over 32,000 of Qwen3's 151,936 tokens), the head drafts over a reduced
vocabulary, the ``--draft-vocab`` most frequent tokens of its training data plus the special tokens, mapped
by ``d2t`` (target_id = draft_id + d2t[draft_id]) and ``t2d`` (bool mask over the target vocabulary). The
exported config.json is stripped of the build machine's paths (optimum-intel's ``auto_map``) and the build
refuses to install files that name a machine path.

This builds the reduced-vocabulary pair committed in ``tests/models/d2t`` (``--out tests/models/d2t``). The
suite's default pair in ``tests/models`` keeps a full-vocabulary head (``--draft-vocab 3072``; it was built
by an earlier version of this script): GenAI 2026.4.1 aborted more soak runs with the reduced-vocabulary
head (4/51 vs 0/49, ``benchmarks/pair_abort_rates.py``), which docs/context.md reports.

``--embedder`` builds the tiny BERT embedder and reranker for the document tests instead
(``tests/models/tiny-embedder``, ``tests/models/tiny-reranker``; see tools/build_tiny_embedder.py).

Usage (from the repo root)::

    python tools/build_tiny_models.py --out tests/models --embedder

    python tools/build_tiny_models.py --out tests/models/d2t --verify
    python tools/build_tiny_models.py --out tests/models --verify-only
    python tools/build_tiny_models.py --out tests/models --verify-only \
        --speed-demo --speed-demo-dir /work/speed-demo

``--verify`` runs the pair in OpenVINO GenAI on CPU (f32 inference and KV cache), greedy, 5 draft tokens,
64 new tokens, on every line of ``tests/prompts.txt``; it fails (exit 1) unless speculative text equals
baseline text for every prompt and the draft acceptance (mean over prompts, and pooled) is at least 40 %.

``--speed-demo`` then widens every MLP of the tiny target with extra units whose ``down_proj`` columns are
zero (same function, ~50M weights to stream per token; the app's own ``eagle_chat.core.models.speed_demo``, on the
IR), writes it to ``<out>/speed-demo/target`` next to a copy of the draft in ``<out>/speed-demo/draft`` (or
``--speed-demo-dir``), and benchmarks baseline vs speculative decoding (K = 3..7). Its output is ~100 MB: do
not commit it. With ``--verify-only`` it works from the pair already in ``--out``, no rebuild.

Reproducibility: all randomness is seeded (``--seed``) and training runs a fixed number of steps, so two runs
on the same machine (same CPython stdlib, same packages, same thread count) give the same models as far as
torch's CPU kernels are deterministic. ``--train-seconds`` / ``--distill-seconds`` replace the step counts by
wall-clock budgets and therefore give machine-dependent results.

Packages used (a ``build-models`` optional extra; install torch first, CPU wheel, and constrain it so pip
does not pull a CUDA build; uninstall torchvision if something drags it in):
    torch==2.13.0 (CPU), transformers==5.5.4, tokenizers==0.22.2, safetensors==0.8.0,
    optimum==2.3.0, optimum-intel==2.2.0, nncf==3.4.0, openvino==2026.4.1, openvino-genai==2026.4.1.0,
    openvino-tokenizers==2026.4.1.0, huggingface-hub==1.21.0 (>=1.5,<1.22), diffusers==0.39.0 (<0.40),
    einops==0.8.2, numpy==2.4.6 (Python 3.11.7).

Not yet achieved (2026-12-07): the copy-heavy samples were added so that the target learns to copy from its
prompt in chat form (issue 36), but a target trained with them for the default 900 steps (train loss 7.9 ->
3.3) still does not copy: asked to show a pasted module again with a docstring, or to quote a source, none of
its reply's 4-grams come from the prompt; 300 more steps on code-edit and document samples alone, or 250 on
spans repeated three times, did not form the copying (induction) either. This version, full-vocabulary head
(``--draft-vocab 3072``), idle machine: build 20.3 min; 11,027 ChatML samples (2,976 code edit, 1,493
document, 1,487 tool, 1,500 Chinese), 2.65M corpus + 3.61M ChatML tokens; target train loss 7.97 -> 3.32,
held-out 8.04 -> 3.51; draft 0.48M params, loss 29.0 -> 14.3, top-1 agreement 0.55 .. 0.51 over TTT steps
1..5; --verify PASS, 8/8 identical, acceptance 61.0 % mean (40-94 % per prompt), 58.0 % pooled. Not
installed in tests/models. The figures below are of the earlier version of this script (no copy-heavy
samples, 256-token windows, 600 target steps).

Observed on the development machine (2 cores, no GPU, seed 0, defaults, 2026-12-01, load average 9-18 from
other jobs): build 22.7 min, and 42.8 min for a second build started while the machine was busier (12.7 min
on an idle machine with the earlier full-vocabulary draft). Under heavy load torch's OpenMP threads spin on
each other: ``OMP_WAIT_POLICY=PASSIVE`` keeps the build moving and does not change its output.
    target 1.01M params, train loss 7.95 -> 3.66, held-out loss 8.05 -> 4.21; draft 0.34M params over 1,024
    of the 3,072 target tokens (95.0 % of the tokens in the target's own continuations), distillation loss
    27.7 -> 11.5, top-1 agreement with the target 0.70 .. 0.68 over TTT steps 1..5.
    sizes: tiny-qwen3 3.29 MB, tiny-qwen3-eagle3 1.20 MB, hf/tiny-qwen3-eagle3 0.89 MB (5.4 MB in all).
    --verify: d2t has 1,024 entries; speculative == baseline on 8/8 prompts; draft acceptance 76.4 % mean
    (54-87 % per prompt), 75.2 % pooled; 3.6-4.9 tokens per target step.
    --speed-demo, measured on the earlier full-vocabulary draft (MLP width 26000, ~50M weights, 102 MB IR;
    8 prompts x 128 tokens, median of 3): K=3 2.19x, K=4 1.92x, K=5 2.58x, K=6 2.08x, K=7 2.33x (baseline
    74-89 tok/s, speculative 143-203 tok/s), identical output at every K.
    Two builds with the same seed (the second with OMP_WAIT_POLICY=PASSIVE) gave bit-identical files: all 24
    (IR, tokenizer, config and safetensors).
"""

from __future__ import annotations

import argparse
import ast
import functools
import json
import math
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import textwrap
import time
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch
from torch import nn

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_PROMPTS = REPO_ROOT / "tests" / "prompts.txt"

TARGET_DIR = "tiny-qwen3"
DRAFT_DIR = "tiny-qwen3-eagle3"
HF_DRAFT_DIR = Path("hf") / DRAFT_DIR
SPEED_DEMO_DIR = "speed-demo"

# --- tokenizer ---------------------------------------------------------------------------------------
VOCAB_SIZE = 3072
ENDOFTEXT, IM_START, IM_END = "<|endoftext|>", "<|im_start|>", "<|im_end|>"
THINK_OPEN, THINK_CLOSE = "<think>", "</think>"
# Qwen2/Qwen3 pre-tokenisation regex.
SPLIT_REGEX = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|"
    r"\s+(?!\S)|\s+"
)
# ChatML, like Qwen3's: earlier assistant turns lose their <think> block; enable_thinking=false appends an
# empty think block to the generation prompt. Tools in Qwen3's (Hermes) format: the function list as JSON lines
# in <tools> in the system turn, the assistant's calls as <tool_call>\n{"name": …, "arguments": …}\n</tool_call>,
# tool results as <tool_response> blocks in one user turn. Without tools the rendering is what it was before the
# tools branch came in (the pair was trained on that). One line, no raw newlines: it goes into an XML attribute
# (the tokenizer IR's rt_info), where a newline would be read back as a space.
CHAT_TEMPLATE = (
    "{%- if tools %}"
    "{{- '<|im_start|>system\\n' }}"
    "{%- if messages[0].role == 'system' %}"
    "{{- messages[0].content + '\\n\\n' }}"
    "{%- endif %}"
    "{{- '# Tools\\n\\nYou may call one or more functions to assist with the user query.\\n\\nYou are provided with "
    "function signatures within <tools></tools> XML tags:\\n<tools>' }}"
    "{%- for tool in tools %}"
    "{{- '\\n' }}{{- tool | tojson }}"
    "{%- endfor %}"
    "{{- '\\n</tools>\\n\\nFor each function call, return a json object with function name and arguments within "
    "<tool_call></tool_call> XML tags:\\n<tool_call>\\n{\"name\": <function-name>, \"arguments\": "
    "<args-json-object>}\\n</tool_call><|im_end|>\\n' }}"
    "{%- elif messages[0].role == 'system' %}"
    "{{- '<|im_start|>system\\n' + messages[0].content + '<|im_end|>\\n' }}"
    "{%- endif %}"
    "{%- for message in messages %}"
    "{%- if message.role == 'system' %}"
    "{%- if not loop.first %}"
    "{{- '<|im_start|>system\\n' + message.content + '<|im_end|>\\n' }}"
    "{%- endif %}"
    "{%- elif message.role == 'assistant' %}"
    "{%- set content = message.content if message.content is string else '' %}"
    "{%- if '</think>' in content %}"
    "{%- set content = content.split('</think>')[-1].lstrip('\\n') %}"
    "{%- endif %}"
    "{{- '<|im_start|>assistant\\n' + content }}"
    "{%- if message.tool_calls %}"
    "{%- for tool_call in message.tool_calls %}"
    "{%- if (loop.first and content) or (not loop.first) %}"
    "{{- '\\n' }}"
    "{%- endif %}"
    "{%- if tool_call.function %}"
    "{%- set tool_call = tool_call.function %}"
    "{%- endif %}"
    "{{- '<tool_call>\\n{\"name\": \"' + tool_call.name + '\", \"arguments\": ' }}"
    "{%- if tool_call.arguments is string %}"
    "{{- tool_call.arguments }}"
    "{%- else %}"
    "{{- tool_call.arguments | tojson }}"
    "{%- endif %}"
    "{{- '}\\n</tool_call>' }}"
    "{%- endfor %}"
    "{%- endif %}"
    "{{- '<|im_end|>\\n' }}"
    "{%- elif message.role == 'tool' %}"
    "{%- if loop.first or messages[loop.index0 - 1].role != 'tool' %}"
    "{{- '<|im_start|>user' }}"
    "{%- endif %}"
    "{{- '\\n<tool_response>\\n' + message.content + '\\n</tool_response>' }}"
    "{%- if loop.last or messages[loop.index0 + 1].role != 'tool' %}"
    "{{- '<|im_end|>\\n' }}"
    "{%- endif %}"
    "{%- else %}"
    "{{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>\\n' }}"
    "{%- endif %}"
    "{%- endfor %}"
    "{%- if add_generation_prompt %}"
    "{{- '<|im_start|>assistant\\n' }}"
    "{%- if enable_thinking is defined and enable_thinking is false %}"
    "{{- '<think>\\n\\n</think>\\n\\n' }}"
    "{%- endif %}"
    "{%- endif %}"
)

# --- models -------------------------------------------------------------------------------------------
TARGET_ARCH = {
    "hidden_size": 64,
    "intermediate_size": 256,
    "num_hidden_layers": 10,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "head_dim": 16,
    "max_position_embeddings": 4096,
    "rms_norm_eps": 1e-6,
    "rope_theta": 10000.0,
}
# GenAI's default EAGLE-3 feature layers for N layers: {2, N // 2, N - 3}.
FEATURE_LAYERS = (2, 5, 7)
DRAFT_INTERMEDIATE = 256
# The draft predicts over the 1,024 most frequent of the 3,072 target tokens (plus the special tokens), like
# real EAGLE-3 heads (AngelSlim: 32,000 of Qwen3's 151,936), so GenAI's d2t mapping is exercised:
# target_id = draft_id + d2t[draft_id].
DRAFT_VOCAB_SIZE = 1024
# 512-token windows (8 a batch: the 4,096 tokens a step of the earlier 16 x 256): a code edit's pasted code
# and its copy in the answer (~600 tokens together) mostly fit in one window, so the target learns to copy
# across the distances a real edit asks for.
SEQ_LEN = 512
BATCH_SIZE = 8
DRAFT_BATCH_SIZE = 4
# Target data: ChatML (functions asked for, code edits, document answers, tool exchanges, Chinese) and corpus.
TARGET_MIX = [0.6, 0.4]
# Draft data: ChatML, plain corpus, the target's own continuations.
DRAFT_MIX = [0.25, 0.25, 0.5]

# --- verification ---------------------------------------------------------------------------------------
OV_PROPS = {"INFERENCE_PRECISION_HINT": "f32", "KV_CACHE_PRECISION": "f32"}
# As the app (eagle_chat.core.generation.engine.SCHEDULER): GenAI's default scheduler with prefix caching off, because
# 2026.4.1 with an EAGLE-3 draft on CPU corrupted the heap after 100-200 repeats of a prompt with it on.
SCHEDULER = {"enable_prefix_caching": False, "max_num_batched_tokens": 1 << 31, "cache_size": 0}
MIN_ACCEPTANCE = 0.40


def configure_environment() -> None:
    """Offline and quiet: no hub access, no telemetry. Must run before Hugging Face or OpenVINO modules
    are imported (this script imports them lazily, inside the functions that need them)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    # OpenVINO's usage telemetry: make the module unimportable (OpenVINO then falls back to a stub).
    sys.modules["openvino_telemetry"] = None  # type: ignore[assignment]


def log(msg: str) -> None:
    """Print a progress line, flushed, with a wall-clock stamp."""
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


def seed_everything(seed: int) -> None:
    """Seed Python, NumPy and torch, and ask torch for deterministic kernels."""
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.use_deterministic_algorithms(True, warn_only=True)


# =====================================================================================================
# Corpus
# =====================================================================================================

_SKIP_DIRS = {"test", "tests", "idle_test", "site-packages", "dist-packages", "__pycache__", "encodings",
              "pydoc_data", "lib2to3", "turtledemo", "ensurepip"}


def find_corpus_files() -> tuple[list[Path], list[Path]]:
    """Return (python_sources, prose_files): CPython stdlib ``*.py`` and Debian license texts.

    Only text that exists on any CPython install (+ Debian's /usr/share/common-licenses when present)
    is used. Exits with a clear message if the standard library sources cannot be found.
    """
    stdlib = Path(sysconfig.get_path("stdlib"))
    sources = sorted(
        p for p in stdlib.rglob("*.py")
        if not (_SKIP_DIRS & set(p.relative_to(stdlib).parts[:-1])) and 1_000 < p.stat().st_size < 300_000
    )
    if len(sources) < 100:
        sys.exit(f"error: found only {len(sources)} Python standard library sources under {stdlib}; "
                 "this builder needs the CPython stdlib .py files (not just .pyc) as its training corpus.")
    licenses_dir = Path("/usr/share/common-licenses")
    prose: list[Path] = []
    if licenses_dir.is_dir():
        seen = set()
        for p in sorted(licenses_dir.iterdir()):
            real = p.resolve()
            if real.is_file() and real not in seen:
                seen.add(real)
                prose.append(real)
    return sources, prose


def read_texts(paths: list[Path], max_bytes: int, rng: random.Random) -> list[tuple[Path, str]]:
    """Read up to ``max_bytes`` of UTF-8 text from a seeded shuffle of ``paths``."""
    order = list(paths)
    rng.shuffle(order)
    texts, total = [], 0
    for path in order:
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        texts.append((path, text))
        total += len(text.encode())
        if total >= max_bytes:
            break
    return texts


# =====================================================================================================
# ChatML samples
# =====================================================================================================

@dataclass
class FunctionSnippet:
    """A documented function from the standard library."""

    name: str
    args: str
    summary: str
    doc: str
    source: str


def extract_functions(text: str) -> list[FunctionSnippet]:
    """Return the short, documented functions and methods defined in a Python source text."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    lines = text.splitlines()
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.name.startswith("__"):
            continue
        doc = ast.get_docstring(node)
        n_lines = node.end_lineno - node.lineno + 1
        if not doc or n_lines > 40:
            continue
        source = textwrap.dedent("\n".join(lines[node.lineno - 1:node.end_lineno])).strip("\n")
        summary = doc.strip().split("\n\n")[0].replace("\n", " ").strip()
        if not (3 <= n_lines <= 40) or not (10 <= len(summary) <= 160) or not summary.isascii():
            continue
        found.append(FunctionSnippet(node.name, ast.unparse(node.args), summary.rstrip("."), doc.strip(),
                                     source))
    return found


def _lower_first(s: str) -> str:
    return s[:1].lower() + s[1:]


@functools.lru_cache(maxsize=1)
def _compiled_chat_template():
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)
    # As transformers (and GenAI's minja) render it: no HTML escaping, keys in their order, non-ASCII kept.
    env.filters["tojson"] = lambda x, ensure_ascii=False, indent=None, separators=None, sort_keys=False: json.dumps(
        x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)
    return env.from_string(CHAT_TEMPLATE)


def render_chat(messages: list[dict], add_generation_prompt: bool, enable_thinking: bool | None,
                tools: list[dict] | None = None) -> str:
    """Render ``messages`` with CHAT_TEMPLATE as transformers does (sandboxed Jinja, trim/lstrip blocks)."""
    kwargs = {} if enable_thinking is None else {"enable_thinking": enable_thinking}
    if tools:
        kwargs["tools"] = tools
    return _compiled_chat_template().render(messages=messages, add_generation_prompt=add_generation_prompt,
                                            **kwargs)


def make_exchange(fn: FunctionSnippet, rng: random.Random) -> tuple[str, str, str]:
    """Return (user_text, thought, answer) for one function: an instruction and a code (or prose) reply."""
    code = f"```python\n{fn.source}\n```"
    kind = rng.randrange(6)
    if kind == 0:
        user = f"Write a Python function that {_lower_first(fn.summary)}."
    elif kind == 1:
        user = f"Write a Python function `{fn.name}({fn.args})`. {fn.summary}."
    elif kind == 2:
        user = f"def {fn.name}({fn.args}):"
    elif kind == 3:
        user = f"Implement {fn.name} in Python."
    elif kind == 4:
        user = f"How would you write a function that {_lower_first(fn.summary)}?"
    else:
        user = f"Explain what this function does:\n{code}"
        thought = f"The function is {fn.name}. I will explain its docstring."
        return user, thought, f"`{fn.name}`: {fn.doc}"
    intro = rng.choice(["", "Here is a Python function that does this:\n\n", "Sure! Here is one way:\n\n",
                        f"Here is `{fn.name}`:\n\n"])
    thought = f"The user wants {fn.name}. {fn.summary}. I will write it in Python."
    return user, thought, intro + code


SYSTEM_PROMPTS = ["You are a helpful assistant.", "You are a helpful coding assistant.",
                  "You are a concise Python expert."]


def make_chat_samples(functions: list[FunctionSnippet], rng: random.Random) -> list[str]:
    """Turn functions into rendered ChatML conversations (1–2 turns, with/without system prompt,
    half with an empty think block as enable_thinking=false yields, half with a short thought)."""
    samples = []
    order = list(functions)
    rng.shuffle(order)
    i = 0
    while i < len(order):
        messages: list[dict] = []
        if rng.random() < 0.3:
            messages.append({"role": "system", "content": rng.choice(SYSTEM_PROMPTS)})
        turns = 2 if rng.random() < 0.2 and i + 1 < len(order) else 1
        text = ""
        for _ in range(turns):
            user, thought, answer = make_exchange(order[i], rng)
            i += 1
            messages.append({"role": "user", "content": user})
            thinking = rng.random() < 0.5
            prompt = render_chat(messages, add_generation_prompt=True, enable_thinking=thinking)
            reply = f"{THINK_OPEN}\n{thought}\n{THINK_CLOSE}\n\n{answer}" if thinking else answer
            text = prompt + reply + f"{IM_END}\n"
            messages.append({"role": "assistant", "content": reply})
        samples.append(text)
    return samples


# --- copy-heavy work: code edits of pasted code, document answers that quote, tool exchanges, Chinese ------
# The target must learn to *copy from its prompt* in chat form, as a real model does when it shows pasted code
# again with a small change, quotes a document or sums up a tool result: that is where prompt lookup decoding
# pays, and without such samples the tiny target (asked to show a pasted module again with a docstring added)
# wrote something else, so the pairs could not show it.

EDIT_ASKS = {
    "docstring": ["Show it again with a docstring added.", "Add a docstring to this function.",
                  "Please add a docstring and show the whole code.", "Can you document this with a docstring?"],
    "rename": ["Rename `{old}` to `{new}`.", "Show it again with `{old}` renamed to `{new}`.",
               "Please rename the variable `{old}` to `{new}` everywhere."],
    "hint": ["Add type hints.", "Show it again with a return type hint.", "Add a return annotation to `{name}`."],
    "fix": ["Fix the typo on line {line}.", "There is a typo in this code; fix it.",
            "This does not run: `{bad}`. Fix it and show the code again."],
}
EDIT_INTROS = {
    "docstring": ["", "Here is the code with a docstring added:\n\n", "Sure, with a docstring:\n\n"],
    "rename": ["", "Here it is with `{old}` renamed to `{new}`:\n\n", "Renamed:\n\n"],
    "hint": ["", "Here it is with the annotation added:\n\n", "With type hints:\n\n"],
    "fix": ["", "The typo was `{bad}`. Here is the fixed code:\n\n", "Fixed:\n\n"],
}
_IDENT = re.compile(r"\b[a-z_][a-z0-9_]{2,}\b")
_KEYWORD_TYPOS = {"return": "retrun", "self.": "slef.", "import": "imoprt", "raise": "riase", "while": "whlie",
                  "except": "excpet", "lambda": "lamdba", "yield": "yeild"}
_NEW_NAMES = ["value", "item", "result", "data", "count", "text", "entry", "total", "current", "node"]


def code_chunks(code_texts: list[tuple[Path, str]], rng: random.Random, n: int) -> list[str]:
    """``n`` line-aligned chunks (8-45 lines, 200-1,600 characters) of stdlib sources, each starting on a
    ``def``/``class`` line or anywhere (as a user pastes the part they are working on)."""
    chunks: list[str] = []
    tries = 0
    while len(chunks) < n and tries < 50 * n:
        tries += 1
        _, text = rng.choice(code_texts)
        lines = text.splitlines()
        if len(lines) < 20:
            continue
        starts = [i for i, line in enumerate(lines) if line.lstrip().startswith(("def ", "class "))]
        start = rng.choice(starts) if starts and rng.random() < 0.7 else rng.randrange(len(lines) - 10)
        chunk = textwrap.dedent("\n".join(lines[start:start + rng.randint(8, 45)])).strip("\n")
        if 200 <= len(chunk) <= 1600 and chunk.isascii() and "```" not in chunk:
            chunks.append(chunk)
    return chunks


def _docstring_for(def_line: str) -> str:
    """A one-line docstring made from a function's name ("parse_header" -> "Parse header.")."""
    m = re.match(r"\s*(?:async\s+)?def\s+(\w+)", def_line)
    words = (m.group(1) if m else "this").strip("_").replace("_", " ") or "helper"
    return f'"""{words[:1].upper() + words[1:]}."""'


def edit_code(code: str, kind: str, rng: random.Random) -> tuple[str, str, dict] | None:
    """(code shown to the user, code of the answer, fields for the ask) for one kind of small change, or None
    when this code offers no place for it. The answer repeats the whole code with the change."""
    lines = code.splitlines()
    defs = [i for i, line in enumerate(lines) if re.match(r"\s*(?:async\s+)?def \w+\(.*\):\s*$", line)]
    if kind == "docstring":
        bare = [i for i in defs if i + 1 < len(lines) and not lines[i + 1].strip().startswith(('"""', "'''", 'r"""'))]
        if not bare:
            return None
        i = bare[0]
        indent = re.match(r"\s*", lines[i]).group(0) + "    "
        return code, "\n".join(lines[:i + 1] + [indent + _docstring_for(lines[i])] + lines[i + 1:]), {}
    if kind == "rename":
        counts: dict[str, int] = {}
        for name in _IDENT.findall(code):
            counts[name] = counts.get(name, 0) + 1
        names = sorted(n for n, c in counts.items() if c >= 2 and n not in _KEYWORDS)
        if not names:
            return None
        old = rng.choice(names)
        new = rng.choice([n for n in _NEW_NAMES if n not in counts] or ["renamed"])
        return code, re.sub(rf"\b{old}\b", new, code), {"old": old, "new": new}
    if kind == "hint":
        plain = [i for i in defs if "->" not in lines[i]]
        if not plain:
            return None
        i = plain[0]
        name = re.search(r"def (\w+)", lines[i]).group(1)
        annotation = "None" if "return " not in code else rng.choice(["object", "bool", "str", "int"])
        changed = re.sub(r"\):\s*$", f") -> {annotation}:", lines[i])
        return code, "\n".join(lines[:i] + [changed] + lines[i + 1:]), {"name": name}
    # fix: the user's code carries a typo that the answer corrects
    spots = [(i, word) for i, line in enumerate(lines) for word in _KEYWORD_TYPOS if word in line]
    if not spots:
        return None
    i, word = rng.choice(spots)
    broken = lines[i].replace(word, _KEYWORD_TYPOS[word], 1)
    shown = "\n".join(lines[:i] + [broken] + lines[i + 1:])
    return shown, code, {"line": i + 1, "bad": broken.strip()}


_KEYWORDS = {"def", "class", "return", "self", "import", "from", "for", "while", "if", "elif", "else", "try",
             "except", "finally", "with", "not", "and", "None", "True", "False", "lambda", "yield", "raise",
             "pass", "break", "continue", "global", "nonlocal", "assert", "del", "async", "await", "cls"}


def make_edit_samples(chunks: list[str], rng: random.Random) -> list[str]:
    """Code-edit conversations: the user pastes code and asks for a small change; the assistant answers with
    the whole code again carrying it (long spans copied from the prompt)."""
    samples = []
    for chunk in chunks:
        kinds = ["docstring", "rename", "hint", "fix"]
        rng.shuffle(kinds)
        edited = next(((k, e) for k in kinds if (e := edit_code(chunk, k, rng))), None)
        if edited is None:
            continue
        kind, (shown, answer_code, fields) = edited
        ask = rng.choice(EDIT_ASKS[kind]).format(**fields)
        pasted = f"```python\n{shown}\n```"
        user = rng.choice([f"Here is my code:\n{pasted}\n{ask}", f"{ask}\n\n{pasted}", f"{pasted}\n\n{ask}"])
        messages = [{"role": "system", "content": rng.choice(SYSTEM_PROMPTS)}] if rng.random() < 0.3 else []
        messages.append({"role": "user", "content": user})
        thinking = rng.random() < 0.5
        reply = rng.choice(EDIT_INTROS[kind]).format(**fields) + f"```python\n{answer_code}\n```"
        if thinking:
            reply = f"{THINK_OPEN}\nThe user wants the code back with one change. I will repeat it.\n{THINK_CLOSE}\n\n" + reply
        samples.append(render_chat(messages, True, thinking) + reply + f"{IM_END}\n")
    return samples


def passages_from(code_texts: list[tuple[Path, str]], prose_texts: list[tuple[Path, str]], rng: random.Random,
                  zh: list[str]) -> tuple[str, str]:
    """(name, passage) of 150-600 characters: a piece of a stdlib module, a license text or Chinese text."""
    pick = rng.random()
    if pick < 0.15 and zh:
        start = rng.randrange(max(1, len(zh) - 8))
        return "说明.txt", "\n".join(zh[start:start + rng.randint(3, 8)])[:600]
    path, text = rng.choice(prose_texts if pick < 0.5 and prose_texts else code_texts)
    start = rng.randrange(max(1, len(text) - 600))
    start = text.rfind("\n", 0, start) + 1
    piece = text[start:start + rng.randint(150, 600)]
    return path.name, piece[:piece.rfind("\n")] if "\n" in piece[40:] else piece


def make_document_samples(code_texts, prose_texts, zh: list[str], rng: random.Random, n: int) -> list[str]:
    """Document Q&A: sources in the system prompt (as the app's document answers put them) or pasted by the
    user; the question names a word of one source, the answer quotes the lines that hold it."""
    samples = []
    for _ in range(n):
        sources = [passages_from(code_texts, prose_texts, rng, zh) for _ in range(rng.randint(1, 3))]
        k = rng.randrange(len(sources))
        lines = [line for line in sources[k][1].splitlines() if len(line.strip()) > 12]
        if not lines:
            continue
        at = rng.randrange(len(lines))
        quote = "\n".join(lines[at:at + rng.randint(1, 4)]).strip()
        words = re.findall(r"[A-Za-z_]{4,}|(?<![\u4e00-\u9fff])[\u4e00-\u9fff]{2,4}", lines[at])
        word = rng.choice(words) if words else lines[at].split()[0]
        listing = "\n".join(f"[{i + 1}] {name}: {text}" for i, (name, text) in enumerate(sources))
        chinese = bool(re.search(r"[\u4e00-\u9fff]", sources[k][1])) and rng.random() < 0.7
        question = (rng.choice(["“{w}”是什么意思？请引用原文。", "关于“{w}”，资料里怎么说？"]) if chinese else rng.choice(
            ["What does [{k}] say about {w}?", "Quote the part about {w}.", "Where is {w} mentioned?",
             "What do the sources say about {w}?"])).format(w=word, k=k + 1)
        if rng.random() < 0.6:
            messages = [{"role": "system", "content": rng.choice(
                ["Answer from these sources and quote them.", "Use the documents below. Quote them."]) + f"\n{listing}\n"},
                {"role": "user", "content": question}]
        else:
            messages = [{"role": "user", "content": f"{listing}\n\n{question}"}]
        intro = rng.choice(["根据 [{k}]：\n", "[{k}] 中写道：\n"] if chinese else
                           ["According to [{k}]:\n", "[{k}] says:\n", "From [{k}] ({name}):\n", ""])
        reply = intro.format(k=k + 1, name=sources[k][0]) + "> " + quote.replace("\n", "\n> ")
        thinking = rng.random() < 0.5
        samples.append(render_chat(messages, True, thinking) + reply + f"{IM_END}\n")
    return samples


TOOLS = [
    {"name": "grep", "description": "Search files for a pattern.",
     "parameters": {"type": "object", "properties": {"pattern": {"type": "string"}, "path": {"type": "string"}},
                    "required": ["pattern"]}},
    {"name": "read_file", "description": "Read lines of a file.",
     "parameters": {"type": "object", "properties": {"path": {"type": "string"}, "start": {"type": "integer"},
                                                     "end": {"type": "integer"}}, "required": ["path"]}},
    {"name": "list_dir", "description": "List a folder.",
     "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}},
    {"name": "search_docs", "description": "Search the user's documents.",
     "parameters": {"type": "object", "properties": {"query": {"type": "string"}, "top_k": {"type": "integer"}},
                    "required": ["query"]}},
]


def make_tool_samples(code_texts: list[tuple[Path, str]], prose_texts, rng: random.Random, n: int) -> list[str]:
    """Tool exchanges in Qwen3's tools template, grounded in the corpus: the assistant calls a tool
    (``<tool_call>`` JSON), the result comes back in ``<tool_response>`` (real grep matches, file lines, folder
    listings, document hits) and the assistant (or, asked again by the user, its next reply) sums it up
    quoting the result. Half offer the tool list (as the app and the API send it), half do not (a client
    replaying a history without it)."""
    samples = []
    by_dir: dict[str, list[str]] = {}
    stdlib = Path(sysconfig.get_path("stdlib"))

    def folder(path: Path) -> str:  # "lib" for a top-level module, else its package's name
        return "lib" if path.parent == stdlib else path.parent.name

    for path, _ in code_texts:
        by_dir.setdefault(folder(path), []).append(path.name)
    for _ in range(n):
        path, text = rng.choice(code_texts)
        lines = text.splitlines()
        kind = rng.choice(["grep", "grep", "read_file", "list_dir", "search_docs"])
        rel = f"{folder(path)}/{path.name}"
        if kind == "grep":
            defs = [(i + 1, line.strip()) for i, line in enumerate(lines) if line.lstrip().startswith("def ")]
            if not defs:
                continue
            word = rng.choice(re.findall(r"def (\w+)", rng.choice(defs)[1]) or ["main"])
            word = rng.choice([word, word.split("_")[0] or word])
            hits = [(i, line) for i, line in defs if word in line][:rng.randint(2, 6)] or defs[:3]
            args = {"pattern": f"def {word}"} if rng.random() < 0.6 else {"pattern": word, "path": rel}
            result = json.dumps({"results": [{"file": rel, "line": i, "match": line} for i, line in hits]},
                                ensure_ascii=False)
            summary = (f"Found {len(hits)} match{'es' if len(hits) > 1 else ''} in `{rel}`:\n"
                       + "\n".join(f"- line {i}: `{line}`" for i, line in hits))
            ask = f"Find where {word} is defined."
        elif kind == "read_file":
            start = rng.randrange(max(1, len(lines) - 12)) + 1
            end = start + rng.randint(4, 12)
            args = {"path": rel, "start": start, "end": end}
            body = "\n".join(lines[start - 1:end])
            if not body.strip() or not body.isascii():
                continue
            result = json.dumps({"path": rel, "start": start, "content": body}, ensure_ascii=False)
            summary = f"Lines {start}-{end} of `{rel}`:\n```python\n{body}\n```"
            ask = f"Show me lines {start} to {end} of {rel}."
        elif kind == "list_dir":
            names = sorted(by_dir.get(folder(path), [path.name]))[:rng.randint(3, 10)]
            args = {"path": folder(path)}
            result = json.dumps({"path": folder(path), "entries": names}, ensure_ascii=False)
            summary = f"`{folder(path)}` holds {len(names)} files: " + ", ".join(f"`{x}`" for x in names) + "."
            ask = f"What is in the {folder(path)} folder?"
        else:
            ptexts = prose_texts or code_texts
            hits = []
            for _ in range(rng.randint(1, 3)):
                ppath, ptext = rng.choice(ptexts)
                start = rng.randrange(max(1, len(ptext) - 300))
                hits.append({"source": ppath.name, "text": " ".join(ptext[start:start + rng.randint(80, 300)].split())})
            query = " ".join(hits[0]["text"].split()[2:5]) or "license"
            args = {"query": query, "top_k": len(hits)} if rng.random() < 0.5 else {"query": query}
            result = json.dumps({"hits": hits}, ensure_ascii=False)
            summary = "\n".join(f"- {h['source']}: \"{h['text']}\"" for h in hits)
            ask = f"Search my documents for {query}."
        call = {"name": kind, "arguments": args}
        with_tools = rng.random() < 0.5
        messages: list[dict] = [{"role": "system", "content": rng.choice(SYSTEM_PROMPTS)}] if rng.random() < 0.3 else []
        messages.append({"role": "user", "content": ask})
        thinking = rng.random() < 0.5
        tools = [{"type": "function", "function": t} for t in TOOLS] if with_tools else None
        # The assistant's call, as the app sends it back (tool_calls) or as a client replays raw text.
        if rng.random() < 0.7:
            messages.append({"role": "assistant", "content": "",
                             "tool_calls": [{"type": "function", "function": {"name": kind, "arguments": args}}]})
        else:
            messages.append({"role": "assistant",
                             "content": f"<tool_call>\n{json.dumps(call, ensure_ascii=False)}\n</tool_call>"})
        messages.append({"role": "tool", "content": result})
        if rng.random() < 0.4:
            messages.append({"role": "user", "content": rng.choice(
                ["Summarise the result.", "List what it found.", "What did it return?", "总结一下结果。"])})
        # The call turn is rendered whole (the model learns to write it), then the result and the summary.
        samples.append(render_chat(messages, True, thinking, tools) + summary + f"{IM_END}\n")
    return samples


def chinese_texts(rng: random.Random, max_bytes: int) -> tuple[list[str], list[tuple[str, str]]]:
    """Chinese text on this disk: the zh_CN message catalogues of the installed programs (gettext .mo files:
    English msgid -> Chinese msgstr) and CPython's cjkencodings test texts. Returns (Chinese lines,
    (English, Chinese) pairs), each a seeded shuffle; empty when none is installed."""
    import gettext

    cjk = re.compile(r"[\u4e00-\u9fff]")
    pairs: list[tuple[str, str]] = []
    for mo in sorted(Path("/usr/share/locale/zh_CN/LC_MESSAGES").glob("*.mo")):
        try:
            with open(mo, "rb") as f:
                catalog = gettext.GNUTranslations(f)._catalog  # msgid -> msgstr; the class has no public reader
        except (OSError, ValueError, UnicodeDecodeError):
            continue
        for en, zh in sorted((k, v) for k, v in catalog.items() if isinstance(k, str) and isinstance(v, str)):
            zh = zh.strip()
            if en and en.isascii() and 6 <= len(zh) <= 200 and len(cjk.findall(zh)) >= 0.3 * len(zh):
                pairs.append((" ".join(en.split()), zh))
    rng.shuffle(pairs)
    lines = [zh for _, zh in pairs]
    test_dir = Path(sysconfig.get_path("stdlib")) / "test" / "cjkencodings"
    for name in ("gb2312-utf8.txt", "gbk-utf8.txt", "gb18030-utf8.txt", "big5-utf8.txt"):
        try:
            lines += [line for line in (test_dir / name).read_text(encoding="utf-8").splitlines() if cjk.search(line)]
        except OSError:
            pass
    kept, total = [], 0
    for line in lines:
        kept.append(line)
        total += len(line.encode())
        if total >= max_bytes:
            break
    return kept, pairs


def generation_prompt_of(sample: str) -> str:
    """The prompt of a rendered conversation's last reply: everything up to its ``<|im_start|>assistant``
    line (and the empty think block, when the sample has one)."""
    head = f"{IM_START}assistant\n"
    cut = sample.rindex(head) + len(head)
    empty_think = f"{THINK_OPEN}\n\n{THINK_CLOSE}\n\n"
    return sample[:cut] + (empty_think if sample.startswith(empty_think, cut) else "")


def make_chinese_samples(pairs: list[tuple[str, str]], zh: list[str], rng: random.Random, n: int) -> list[str]:
    """Chinese chat: translate a program message into Chinese, explain or repeat Chinese text."""
    samples = []
    for en, text in pairs[:n]:
        kind = rng.randrange(3)
        if kind == 0:
            user, reply = rng.choice(["把这句话翻译成中文：{en}", "Translate into Chinese: {en}", "请翻译：{en}"]).format(en=en), text
        elif kind == 1:
            more = "".join(rng.sample(zh, min(3, len(zh)))) if zh else ""
            user, reply = rng.choice(["请介绍一下：{t}", "解释一下这句话：{t}", "{t}"]).format(t=text), (text + more)[:300]
        else:
            user, reply = f"“{text}”是什么意思？用英文回答。", f"It means: {en}"
        messages = [{"role": "user", "content": user}]
        thinking = rng.random() < 0.5
        samples.append(render_chat(messages, True, thinking) + reply + f"{IM_END}\n")
    return samples


# =====================================================================================================
# Tokenizer
# =====================================================================================================

def train_tokenizer(texts: list[str], out_dir: Path):
    """Train the byte-level BPE, save it with the chat template in tokenizer_config.json, and return the
    transformers tokenizer."""
    from tokenizers import (
        AddedToken,
        Regex,
        Tokenizer,
        decoders,
        models,
        normalizers,
        pre_tokenizers,
        processors,
        trainers,
    )
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.normalizer = normalizers.NFC()
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(SPLIT_REGEX), behavior="isolated", invert=False),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
    ])
    tok.post_processor = processors.ByteLevel(trim_offsets=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=VOCAB_SIZE - 2, min_frequency=2, show_progress=False,
        special_tokens=[ENDOFTEXT, IM_START, IM_END], initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tok.train_from_iterator(texts, trainer)
    # Like Qwen3: <think>/</think> are added tokens that are *not* special (they survive skip_special_tokens).
    tok.add_tokens([AddedToken(THINK_OPEN, special=False, normalized=False),
                    AddedToken(THINK_CLOSE, special=False, normalized=False)])
    assert tok.get_vocab_size() == VOCAB_SIZE, tok.get_vocab_size()

    hf_tok = PreTrainedTokenizerFast(
        tokenizer_object=tok, eos_token=IM_END, pad_token=ENDOFTEXT, bos_token=None, unk_token=None,
        model_max_length=TARGET_ARCH["max_position_embeddings"], clean_up_tokenization_spaces=False,
    )
    hf_tok.chat_template = CHAT_TEMPLATE
    save_tokenizer(hf_tok, out_dir)
    return hf_tok


def save_tokenizer(tokenizer, out_dir: Path) -> None:
    """Save the tokenizer files and normalise their config."""
    tokenizer.save_pretrained(out_dir, save_jinja_files=False)
    normalize_tokenizer_config(out_dir)


def normalize_tokenizer_config(model_dir: Path) -> None:
    """Make tokenizer_config.json self-contained and loadable by transformers 4.x and 5.x alike: the chat
    template lives in it (not in chat_template.jinja, which transformers 5 / optimum write by default),
    the class is PreTrainedTokenizerFast, and load-time keys (is_local, backend) are dropped."""
    path = model_dir / "tokenizer_config.json"
    config = json.loads(path.read_text(encoding="utf-8"))
    jinja = model_dir / "chat_template.jinja"
    config["chat_template"] = jinja.read_text(encoding="utf-8") if jinja.exists() else config.get("chat_template",
                                                                                                   CHAT_TEMPLATE)
    jinja.unlink(missing_ok=True)
    config["tokenizer_class"] = "PreTrainedTokenizerFast"
    for key in ("is_local", "backend"):
        config.pop(key, None)
    path.write_text(json.dumps(config, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


TOKENIZER_IRS = ("openvino_tokenizer.xml", "openvino_detokenizer.xml")
_RT_CHAT_TEMPLATE = re.compile(r'<chat_template value="[^"]*" />')


def set_chat_template(model_dir: Path, template: str = CHAT_TEMPLATE) -> list[Path]:
    """Swap the chat template of a built model folder in place, without retraining or re-exporting: in
    tokenizer_config.json and in the rt_info of the tokenizer IRs (where OpenVINO GenAI reads it). The IRs'
    other bytes stay as they are (the weights in the .bin files are not touched). Returns the files changed."""
    changed = []
    config_path = model_dir / "tokenizer_config.json"
    if config_path.exists():
        config = json.loads(config_path.read_text(encoding="utf-8"))
        if config.get("chat_template") != template:
            config["chat_template"] = template
            config_path.write_text(json.dumps(config, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
            changed.append(config_path)
    # Escaped as OpenVINO's serializer (pugixml) writes an attribute: &, < and " only.
    value = template.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")
    assert "\n" not in template and "\r" not in template, "a raw newline in an XML attribute reads back as a space"
    for name in TOKENIZER_IRS:
        path = model_dir / name
        if not path.exists():
            continue
        xml = path.read_text(encoding="utf-8")
        new, count = _RT_CHAT_TEMPLATE.subn(lambda _: f'<chat_template value="{value}" />', xml)
        if count != 1:
            raise SystemExit(f"{path}: expected one chat_template in rt_info, found {count}")
        if new != xml:
            path.write_text(new, encoding="utf-8")
            changed.append(path)
    return changed


def strip_special_strings(text: str) -> str:
    """Blank out special/added token strings so BPE merges are not spent on them."""
    for token in (ENDOFTEXT, IM_START, IM_END, THINK_OPEN, THINK_CLOSE):
        text = text.replace(token, "\n")
    return text


# =====================================================================================================
# Token streams
# =====================================================================================================

@dataclass
class TokenStreams:
    """Long token id arrays to sample training windows from; ``*_eval`` are held-out tails."""

    code: np.ndarray
    chat: np.ndarray
    code_eval: np.ndarray
    chat_eval: np.ndarray
    extra: list[np.ndarray] = field(default_factory=list)


def encode_stream(tokenizer, texts: list[str]) -> np.ndarray:
    """Tokenize documents and join them into one id array, each followed by <|endoftext|>."""
    eot = tokenizer.convert_tokens_to_ids(ENDOFTEXT)
    ids: list[int] = []
    for enc in tokenizer._tokenizer.encode_batch(texts, add_special_tokens=False):
        ids.extend(enc.ids)
        ids.append(eot)
    return np.asarray(ids, dtype=np.int64)


def tokenize_streams(tokenizer, raw_texts: list[str], chat_texts: list[str], eval_fraction=0.02) -> TokenStreams:
    """Corpus and ChatML streams, each split into a training head and a held-out tail."""
    code, chat = encode_stream(tokenizer, raw_texts), encode_stream(tokenizer, chat_texts)
    n_code, n_chat = int(len(code) * (1 - eval_fraction)), int(len(chat) * (1 - eval_fraction))
    return TokenStreams(code[:n_code], chat[:n_chat], code[n_code:], chat[n_chat:])


def sample_windows(stream: np.ndarray, n: int, length: int, rng: np.random.Generator) -> torch.Tensor:
    """``n`` random windows of ``length`` tokens from ``stream``."""
    starts = rng.integers(0, len(stream) - length, size=n)
    return torch.from_numpy(np.stack([stream[s:s + length] for s in starts]))


def sample_batch(pools: list[np.ndarray], shares: list[float], rng: np.random.Generator, batch: int,
                 length=SEQ_LEN) -> torch.Tensor:
    """A batch of ``batch`` windows, drawn from ``pools`` in proportion to ``shares``."""
    counts = [round(batch * share) for share in shares]
    counts[-1] = batch - sum(counts[:-1])
    return torch.cat([sample_windows(pool, n, length, rng) for pool, n in zip(pools, counts) if n > 0])


# =====================================================================================================
# Training helpers
# =====================================================================================================

class Budget:
    """A fixed number of steps, or (if ``seconds`` is given) a wall-clock budget; gives lr progress."""

    def __init__(self, steps: int, seconds: float | None):
        self.steps, self.seconds, self.start, self.step = steps, seconds, time.monotonic(), 0

    def progress(self) -> float:
        if self.seconds:
            return min(1.0, (time.monotonic() - self.start) / self.seconds)
        return self.step / self.steps

    def running(self) -> bool:
        return self.progress() < 1.0


def cosine_lr(progress: float, peak: float, warmup: float = 0.03, floor: float = 0.1) -> float:
    """Linear warm-up then cosine decay to ``floor * peak``."""
    if progress < warmup:
        return peak * max(progress / warmup, 0.02)
    t = (progress - warmup) / (1 - warmup)
    return peak * (floor + (1 - floor) * 0.5 * (1 + math.cos(math.pi * t)))


def make_optimizer(params, lr: float) -> torch.optim.Optimizer:
    """AdamW with weight decay on matrices only."""
    params = [p for p in params if p.requires_grad]
    return torch.optim.AdamW([
        {"params": [p for p in params if p.dim() >= 2], "weight_decay": 0.05},
        {"params": [p for p in params if p.dim() < 2], "weight_decay": 0.0},
    ], lr=lr, betas=(0.9, 0.95))


# =====================================================================================================
# Target
# =====================================================================================================

def make_target(tokenizer):
    """A fresh tiny Qwen3 (float32)."""
    from transformers import GenerationConfig, Qwen3Config, Qwen3ForCausalLM

    arch = dict(TARGET_ARCH)
    rope_theta = arch.pop("rope_theta")
    config = Qwen3Config(
        vocab_size=VOCAB_SIZE, tie_word_embeddings=False, use_cache=True,
        rope_parameters={"rope_type": "default", "rope_theta": rope_theta},
        bos_token_id=tokenizer.convert_tokens_to_ids(ENDOFTEXT),
        eos_token_id=tokenizer.convert_tokens_to_ids(IM_END),
        pad_token_id=tokenizer.convert_tokens_to_ids(ENDOFTEXT),
        attn_implementation="sdpa", **arch,
    )
    model = Qwen3ForCausalLM(config)
    model.generation_config = GenerationConfig(
        bos_token_id=config.bos_token_id, pad_token_id=config.pad_token_id,
        eos_token_id=[config.eos_token_id, config.bos_token_id],
    )
    return model


@torch.no_grad()
def eval_loss(model, streams: TokenStreams, n=32, seed=0) -> float:
    """Mean LM loss on fixed held-out windows (half chat, half code)."""
    rng = np.random.default_rng(seed)
    batch = torch.cat([sample_windows(streams.chat_eval, n // 2, SEQ_LEN, rng),
                       sample_windows(streams.code_eval, n // 2, SEQ_LEN, rng)])
    model.eval()
    loss = sum(model(input_ids=b, labels=b, use_cache=False).loss.item() for b in batch.split(8)) / (n / 8)
    model.train()
    return loss


def train_target(model, streams: TokenStreams, budget: Budget, seed: int, lr=3e-3) -> dict:
    """Pre-train the target on corpus + ChatML windows; returns loss figures."""
    rng = np.random.default_rng(seed)
    opt = make_optimizer(model.parameters(), lr)
    model.train()
    losses = []
    figures = {"eval_loss_start": eval_loss(model, streams)}
    while budget.running():
        for group in opt.param_groups:
            group["lr"] = cosine_lr(budget.progress(), lr)
        batch = sample_batch([streams.chat, streams.code], TARGET_MIX, rng, BATCH_SIZE)
        loss = model(input_ids=batch, labels=batch, use_cache=False).loss
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        opt.zero_grad(set_to_none=True)
        losses.append(loss.item())
        budget.step += 1
        if budget.step % 50 == 0:
            log(f"  target step {budget.step}: loss {np.mean(losses[-50:]):.3f}")
    model.eval()
    figures.update(steps=budget.step, train_loss_first=float(np.mean(losses[:10])),
                   train_loss_last=float(np.mean(losses[-50:])), eval_loss_end=eval_loss(model, streams))
    return figures


def save_target(model, tokenizer, out_dir: Path) -> None:
    """Save the target in Hugging Face form (float32) with the tokenizer."""
    model.save_pretrained(out_dir)
    save_tokenizer(tokenizer, out_dir)


@torch.no_grad()
def generate_self_data(model, tokenizer, prompts: list[str], seed: int, new_tokens=160, batch=64) -> np.ndarray:
    """Let the target continue ``prompts`` (alternating greedy and sampled batches) and return the token ids
    (prompt + continuation, each ended by <|endoftext|>) as one stream: the draft then learns from the
    target's own outputs, which is what it sees at inference (EAGLE-3's 'regenerated' data)."""
    eot = tokenizer.convert_tokens_to_ids(ENDOFTEXT)
    eos = set(model.generation_config.eos_token_id)
    ids: list[int] = []
    for n, i in enumerate(range(0, len(prompts), batch)):
        encoded = [e.ids for e in tokenizer._tokenizer.encode_batch(prompts[i:i + batch], add_special_tokens=False)]
        width = max(map(len, encoded))
        input_ids = torch.tensor([[eot] * (width - len(e)) + e for e in encoded])  # left padding
        attention_mask = torch.tensor([[0] * (width - len(e)) + [1] * len(e) for e in encoded])
        sample = n % 2 == 1
        torch.manual_seed(seed * 1000 + n)
        out = model.generate(input_ids=input_ids, attention_mask=attention_mask, max_new_tokens=new_tokens,
                             do_sample=sample, top_k=40 if sample else None, temperature=0.8 if sample else None,
                             top_p=None, pad_token_id=eot)
        for prompt, row in zip(encoded, out[:, width:].tolist()):
            seq = list(prompt)
            for token in row:
                seq.append(token)
                if token in eos:
                    break
            ids += seq + ([] if seq[-1] == eot else [eot])
    return np.asarray(ids, dtype=np.int64)


# =====================================================================================================
# EAGLE-3 draft head (parameter names and maths as optimum-intel's LlamaEagle3Model / AngelSlim)
# =====================================================================================================

def draft_config_dict(target_config, draft_vocab_size: int) -> dict:
    """config.json of the draft head, in the AngelSlim style."""
    return {
        "architectures": ["LlamaForCausalLMEagle3"],
        "model_type": "llama",
        "bos_token_id": target_config.bos_token_id,
        "eos_token_id": target_config.eos_token_id,
        "pad_token_id": target_config.pad_token_id,
        "hidden_act": "silu",
        "hidden_size": target_config.hidden_size,
        "target_hidden_size": target_config.hidden_size,
        "intermediate_size": DRAFT_INTERMEDIATE,
        "num_hidden_layers": 1,
        "num_attention_heads": target_config.num_attention_heads,
        "num_key_value_heads": target_config.num_key_value_heads,
        "head_dim": target_config.head_dim,
        "max_position_embeddings": target_config.max_position_embeddings,
        "rms_norm_eps": target_config.rms_norm_eps,
        "rope_theta": target_config.rope_parameters["rope_theta"],
        "rope_scaling": None,
        "attention_bias": False,
        "mlp_bias": False,
        "initializer_range": 0.02,
        "tie_word_embeddings": False,
        "use_cache": True,
        "vocab_size": target_config.vocab_size,
        "draft_vocab_size": draft_vocab_size,
        "torch_dtype": "float16",
    }


def repeat_kv(x: torch.Tensor, n_rep: int) -> torch.Tensor:
    """[B, KV, S, D] -> [B, KV * n_rep, S, D] (grouped-query attention, Llama order)."""
    return x if n_rep == 1 else x.repeat_interleave(n_rep, dim=1)


class Eagle3Attention(nn.Module):
    """Attention over [input embedding ; hidden state] (2h wide) with a training-time-test KV list."""

    def __init__(self, cfg):
        super().__init__()
        self.heads, self.kv_heads, self.head_dim = cfg.num_attention_heads, cfg.num_key_value_heads, cfg.head_dim
        self.q_proj = nn.Linear(2 * cfg.hidden_size, self.heads * self.head_dim, bias=False)
        self.k_proj = nn.Linear(2 * cfg.hidden_size, self.kv_heads * self.head_dim, bias=False)
        self.v_proj = nn.Linear(2 * cfg.hidden_size, self.kv_heads * self.head_dim, bias=False)
        self.o_proj = nn.Linear(self.heads * self.head_dim, cfg.hidden_size, bias=False)

    def forward(self, x, cos, sin, keys: list, values: list):
        """Step ``len(keys)`` of training-time test. Slot j attends to step-0 slots 0..j (the real context)
        and to slot j of every later step (its own earlier drafts), as in chain drafting."""
        from transformers.models.llama.modeling_llama import apply_rotary_pos_emb

        b, s, _ = x.shape
        q = self.q_proj(x).view(b, s, self.heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(b, s, self.kv_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(b, s, self.kv_heads, self.head_dim).transpose(1, 2)
        q, k = apply_rotary_pos_emb(q, k, cos, sin)
        n_rep = self.heads // self.kv_heads
        keys.append(repeat_kv(k, n_rep))
        values.append(repeat_kv(v, n_rep))
        scale = self.head_dim ** -0.5
        causal = torch.ones(s, s, dtype=torch.bool).tril()
        scores = [(q @ keys[0].transpose(-1, -2) * scale).masked_fill(~causal, float("-inf"))]
        scores += [(q * kk).sum(-1, keepdim=True) * scale for kk in keys[1:]]
        probs = torch.cat(scores, dim=-1).softmax(dim=-1)
        out = probs[..., :s] @ values[0]
        for i, vv in enumerate(values[1:]):
            out = out + probs[..., s + i:s + i + 1] * vv
        return self.o_proj(out.transpose(1, 2).reshape(b, s, -1))


class Eagle3Layer(nn.Module):
    """The single EAGLE-3 decoder layer ("midlayer")."""

    def __init__(self, cfg):
        super().__init__()
        from transformers.models.llama.modeling_llama import LlamaMLP, LlamaRMSNorm

        self.hidden_norm = LlamaRMSNorm(cfg.hidden_size, eps=cfg.rms_norm_eps)
        self.input_layernorm = LlamaRMSNorm(cfg.hidden_size, eps=cfg.rms_norm_eps)
        self.post_attention_layernorm = LlamaRMSNorm(cfg.hidden_size, eps=cfg.rms_norm_eps)
        self.self_attn = Eagle3Attention(cfg)
        self.mlp = LlamaMLP(cfg)

    def forward(self, emb, hidden, cos, sin, keys, values):
        residual = hidden
        x = torch.cat((self.input_layernorm(emb), self.hidden_norm(hidden)), dim=-1)
        hidden = residual + self.self_attn(x, cos, sin, keys, values)
        return hidden + self.mlp(self.post_attention_layernorm(hidden))


class Eagle3Draft(nn.Module):
    """EAGLE-3 draft head; ``state_dict()`` keys are exactly the AngelSlim checkpoint keys."""

    def __init__(self, config_dict: dict):
        super().__init__()
        from transformers import LlamaConfig
        from transformers.models.llama.modeling_llama import (
            LlamaRMSNorm,
            LlamaRotaryEmbedding,
        )

        cfg = LlamaConfig(**config_dict)
        self.config_dict = config_dict
        h = cfg.hidden_size
        self.embed_tokens = nn.Embedding(cfg.vocab_size, h)
        self.fc = nn.Linear(3 * config_dict["target_hidden_size"], h, bias=False)
        self.midlayer = Eagle3Layer(cfg)
        self.norm = LlamaRMSNorm(h, eps=cfg.rms_norm_eps)
        self.lm_head = nn.Linear(h, config_dict["draft_vocab_size"], bias=False)
        self.register_buffer("d2t", torch.zeros(config_dict["draft_vocab_size"], dtype=torch.long))
        self.register_buffer("t2d", torch.zeros(cfg.vocab_size, dtype=torch.bool))
        self.rotary_emb = LlamaRotaryEmbedding(cfg)  # buffers are not persistent: not saved

    def forward_ttt(self, features: torch.Tensor, tokens: torch.Tensor, steps: int) -> list[torch.Tensor]:
        """Training-time test. ``features`` [B, S, 3h]: target features of positions 0..S-1;
        ``tokens`` [B, S + steps - 1]: ``tokens[:, j + k]`` is the token slot j consumes at step k
        (position j + k + 1 of the sequence). Returns draft logits per step, [B, S, draft_vocab]."""
        b, s, _ = features.shape
        hidden = self.fc(features)
        keys, values, logits = [], [], []
        for k in range(steps):
            emb = self.embed_tokens(tokens[:, k:k + s])
            positions = torch.arange(k, k + s).unsqueeze(0).expand(b, -1)
            cos, sin = self.rotary_emb(hidden, positions)
            hidden = self.midlayer(emb, hidden, cos, sin, keys, values)
            logits.append(self.lm_head(self.norm(hidden)))
        return logits


def choose_draft_vocab(streams: TokenStreams, size: int, always: list[int]) -> torch.Tensor:
    """The draft vocabulary as EAGLE-3 training chooses it: the ``size`` most frequent target ids in the
    draft's training data (corpus, ChatML and the target's own continuations; not the held-out tails),
    with every id in ``always`` (the special tokens) kept whatever its count. Ties go to the lower id.
    Returns the chosen target ids, sorted, so draft id i is target id ``ids[i]``."""
    if not len(always) <= size <= VOCAB_SIZE:
        raise ValueError(f"draft vocabulary must hold the {len(always)} special tokens and at most "
                         f"{VOCAB_SIZE} tokens, got {size}")
    counts = np.bincount(np.concatenate([streams.code, streams.chat, *streams.extra]), minlength=VOCAB_SIZE)
    counts[always] = counts.max() + 1
    return torch.from_numpy(np.sort(np.argsort(-counts, kind="stable")[:size]))


def draft_vocab_coverage(streams: TokenStreams, ids: torch.Tensor) -> float:
    """Share of the tokens in the target's own continuations that the draft vocabulary can express."""
    self_tokens = np.concatenate(streams.extra) if streams.extra else streams.chat
    return float(np.isin(self_tokens, ids.numpy()).mean())


def init_draft(target, streams: TokenStreams, draft_vocab_size: int, specials: list[int]) -> Eagle3Draft:
    """A draft head warm-started from the target so that it starts as a "logit lens" on the last feature
    layer: ``fc`` passes that layer through, the attention and MLP outputs start at zero, and the final
    norm and lm_head rows are the target's. The embedding is the target's and stays frozen (GenAI
    replaces the draft's embedding by the target's at load time anyway)."""
    draft = Eagle3Draft(draft_config_dict(target.config, draft_vocab_size))
    ids = choose_draft_vocab(streams, draft_vocab_size, specials)
    h = target.config.hidden_size
    with torch.no_grad():
        draft.embed_tokens.weight.copy_(target.model.embed_tokens.weight)
        draft.embed_tokens.weight.requires_grad_(False)
        draft.fc.weight.zero_()
        draft.fc.weight[:, 2 * h:] = torch.eye(h)
        draft.midlayer.self_attn.o_proj.weight.zero_()
        draft.midlayer.mlp.down_proj.weight.zero_()
        draft.norm.weight.copy_(target.model.norm.weight)
        draft.lm_head.weight.copy_(target.lm_head.weight[ids])
        draft.d2t.copy_(ids - torch.arange(draft_vocab_size))
        draft.t2d.zero_()
        draft.t2d[ids] = True
    # The maps as GenAI and AngelSlim read them: target_id = draft_id + d2t[draft_id]; t2d marks the target
    # ids the draft can produce.
    assert torch.equal(torch.arange(draft_vocab_size) + draft.d2t, ids)
    assert int(draft.t2d.sum()) == draft_vocab_size and bool(draft.t2d[specials].all())
    return draft


@torch.no_grad()
def target_features(target, batch: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Run the target; return (features [B, L, 3h] = residual stream after FEATURE_LAYERS, logits)."""
    captured: dict[int, torch.Tensor] = {}
    hooks = [target.model.layers[i].register_forward_hook(
        lambda _m, _inp, out, i=i: captured.__setitem__(i, out[0] if isinstance(out, tuple) else out))
        for i in FEATURE_LAYERS]
    try:
        logits = target(input_ids=batch, use_cache=False).logits
    finally:
        for h in hooks:
            h.remove()
    return torch.cat([captured[i] for i in FEATURE_LAYERS], dim=-1), logits


def distill_step(draft: Eagle3Draft, target, batch: torch.Tensor, ttt_steps: int, measure: bool, decay=0.8):
    """One distillation step: soft cross-entropy to the target's next-token distribution (restricted to
    the draft vocabulary) at every training-time-test step, weighted ``decay ** step``.
    Returns (loss, per-step top-1 agreement with the target, or None when not ``measure``)."""
    feats, t_logits = target_features(target, batch)
    s = batch.shape[1] - ttt_steps  # slots whose every step has a target
    ids = draft.d2t + torch.arange(len(draft.d2t))  # draft id -> target id
    t_next = t_logits[:, 1:]  # t_next[:, j + k] is what slot j must predict at step k
    top = t_next.argmax(-1)
    mask = draft.t2d[top].float()
    probs = (t_next if len(ids) == t_next.shape[-1] else t_next[..., ids]).softmax(-1)
    logits = draft.forward_ttt(feats[:, :s], batch[:, 1:], ttt_steps)
    loss, agree = 0.0, []
    for k, lg in enumerate(logits):
        ce = nn.functional.cross_entropy(lg.flatten(0, 1), probs[:, k:k + s].flatten(0, 1), reduction="none")
        m = mask[:, k:k + s].flatten()
        loss = loss + decay ** k * (ce * m).sum() / m.sum().clamp(min=1)
        if measure:
            with torch.no_grad():
                agree.append((ids[lg.argmax(-1)] == top[:, k:k + s]).float().mean().item())
    return loss, (agree if measure else None)


def train_draft(draft: Eagle3Draft, target, streams: TokenStreams, budget: Budget, ttt_steps: int, seed: int,
                lr=3e-3, batch_size=DRAFT_BATCH_SIZE) -> dict:
    """Distil the head on the target's hidden states (self-generated data mixed with corpus windows)."""
    rng = np.random.default_rng(seed + 1)
    opt = make_optimizer(draft.parameters(), lr)
    losses, agrees = [], []
    draft.train()
    while budget.running():
        for group in opt.param_groups:
            group["lr"] = cosine_lr(budget.progress(), lr)
        batch = sample_batch([streams.chat, streams.code, *streams.extra], DRAFT_MIX, rng, batch_size)
        loss, agree = distill_step(draft, target, batch, ttt_steps, measure=budget.step % 5 == 0)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(draft.parameters(), 1.0)
        opt.step()
        opt.zero_grad(set_to_none=True)
        losses.append(loss.item())
        if agree:
            agrees.append(agree)
        budget.step += 1
        if budget.step % 50 == 0:
            a = np.mean(agrees[-10:], axis=0)
            log(f"  draft step {budget.step}: loss {np.mean(losses[-50:]):.3f}, "
                f"top-1 agreement per TTT step {' '.join(f'{x:.2f}' for x in a)}")
    draft.eval()
    return {"steps": budget.step, "loss_first": float(np.mean(losses[:10])),
            "loss_last": float(np.mean(losses[-50:])),
            "agreement_last": [round(float(x), 3) for x in np.mean(agrees[-10:], axis=0)]}


def save_draft_hf(draft: Eagle3Draft, tokenizer, out_dir: Path) -> None:
    """Save the head as an AngelSlim-style checkpoint: config.json, fp16 model.safetensors, tokenizer."""
    from safetensors.torch import save_file

    out_dir.mkdir(parents=True, exist_ok=True)
    tensors = {k: (v.half() if v.is_floating_point() else v).contiguous() for k, v in draft.state_dict().items()}
    save_file(tensors, out_dir / "model.safetensors", metadata={"format": "pt"})
    (out_dir / "config.json").write_text(json.dumps(draft.config_dict, indent=2) + "\n")
    save_tokenizer(tokenizer, out_dir)


# =====================================================================================================
# Export
# =====================================================================================================

# optimum-cli, run by this interpreter with OpenVINO telemetry made unimportable.
_OPTIMUM_CLI = ("import sys; sys.modules['openvino_telemetry'] = None; "
                "from optimum.commands.optimum_cli import main; sys.argv[0] = 'optimum-cli'; sys.exit(main())")


def export_openvino(model_dir: Path, out_dir: Path, trust_remote_code=False) -> None:
    """``optimum-cli export openvino --task text-generation-with-past --weight-format fp16``."""
    cmd = [sys.executable, "-c", _OPTIMUM_CLI, "export", "openvino", "--model", str(model_dir),
           "--task", "text-generation-with-past", "--weight-format", "fp16"]
    if trust_remote_code:
        cmd.append("--trust-remote-code")
    cmd.append(str(out_dir))
    log("  $ optimum-cli " + " ".join(cmd[3:]))
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        sys.stderr.write(proc.stdout[-5000:] + proc.stderr[-5000:])
        sys.exit(f"error: optimum-cli export of {model_dir} failed (exit {proc.returncode})")
    for name in ("openvino_model.xml", "openvino_model.bin", "openvino_tokenizer.xml", "openvino_detokenizer.xml"):
        if not (out_dir / name).is_file():
            sys.exit(f"error: optimum-cli did not write {out_dir / name}")
    normalize_tokenizer_config(out_dir)
    normalize_model_config(out_dir)


def normalize_model_config(model_dir: Path) -> None:
    """Drop ``auto_map`` entries whose code is not in the folder. For an EAGLE-3 head optimum-intel writes
    ``auto_map`` pointing at its own model patcher by absolute path (".../site-packages/optimum/exporters/
    openvino--model_patcher.LlamaEagle3Model"): it names the build machine, differs between machines (so the
    rebuild would not be reproducible) and is useless to anyone else. Nothing reads it for an IR folder."""
    path = model_dir / "config.json"
    config = json.loads(path.read_text(encoding="utf-8"))
    auto_map = config.get("auto_map")
    if not isinstance(auto_map, dict):
        return

    def local(ref) -> bool:
        refs = ref if isinstance(ref, list) else [ref]
        return all(isinstance(r, str) and "--" not in r and "/" not in r and "\\" not in r
                   and (model_dir / (r.rsplit(".", 1)[0] + ".py")).is_file() for r in refs if r)

    kept = {name: ref for name, ref in auto_map.items() if local(ref)}
    if kept:
        config["auto_map"] = kept
    else:
        del config["auto_map"]
    path.write_text(json.dumps(config, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


# Absolute paths under the usual top-level folders of Linux, macOS and Windows machines. (No token of the
# tiny BPE can hold one: its pre-tokenizer keeps punctuation and letters in separate pieces.)
_ABSOLUTE_PATH = re.compile(rb"(?<![\w.])/(?:work|tmp|root|home|Users|usr|opt|var|mnt|private)/|"
                            rb"\b[A-Za-z]:(?:\\\\|\\|/)(?:Users|Program Files|Windows)\b|site-packages|dist-packages")


def machine_paths(root: Path, extra: tuple[Path, ...] = ()) -> list[str]:
    """``file: match`` for every absolute machine path in any file under ``root`` (read as bytes): this
    interpreter's prefixes, the home, temporary and repo folders, ``extra``, any "site-packages", and any
    path under a usual top-level folder (/work/, /tmp/, /home/, C:\\Users, ...)."""
    needles = set()
    for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, Path.home(), tempfile.gettempdir(), REPO_ROOT,
              *extra):
        parts = Path(p).resolve().parts
        if len(parts) > 2:  # "/work/main", not "/tmp" or "/usr" alone: a token of the BPE may read "/tmp"
            needles.add(str(Path(*parts)).encode())
    found = []
    for file in sorted(f for f in root.rglob("*") if f.is_file()):
        data = file.read_bytes()
        hits = {n for n in needles if n in data} | {m.group(0) for m in _ABSOLUTE_PATH.finditer(data)}
        found += [f"{file.relative_to(root)}: {h.decode(errors='replace')}" for h in sorted(hits)]
    return found


def dir_size(path: Path) -> int:
    """Total size in bytes of the files under ``path``."""
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


# =====================================================================================================
# Verification with OpenVINO GenAI
# =====================================================================================================

def read_prompts(path: Path) -> list[str]:
    """Non-empty lines of ``path``."""
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def fit(text: str, width: int) -> str:
    """``text`` cut/padded to ``width`` terminal columns (CJK characters count two)."""
    out, used = "", 0
    for ch in text:
        w = 2 if unicodedata.east_asian_width(ch) in "WF" else 1
        if used + w > width - 2:
            out, used = out + "…", used + 1
            break
        out, used = out + ch, used + w
    return out + " " * (width - used)


def load_pipelines(target_dir: Path, draft_dir: Path):
    """(baseline, speculative) GenAI pipelines on CPU with f32 inference and KV cache."""
    import openvino_genai as ov_genai

    def scheduler():
        config = ov_genai.SchedulerConfig()
        for name, value in SCHEDULER.items():
            setattr(config, name, value)
        return config

    base = ov_genai.LLMPipeline(str(target_dir), "CPU", scheduler_config=scheduler(), **OV_PROPS)
    spec = ov_genai.LLMPipeline(str(target_dir), "CPU", scheduler_config=scheduler(),
                                draft_model=ov_genai.draft_model(str(draft_dir), "CPU", **OV_PROPS), **OV_PROPS)
    return base, spec


def greedy_config(max_new_tokens: int, num_assistant_tokens: int | None = None):
    """A greedy GenerationConfig (with ``num_assistant_tokens`` for the speculative pipeline)."""
    import openvino_genai as ov_genai

    cfg = ov_genai.GenerationConfig()
    cfg.max_new_tokens = max_new_tokens
    cfg.do_sample = False
    if num_assistant_tokens is not None:
        cfg.num_assistant_tokens = num_assistant_tokens
    return cfg


def check_draft_vocab(draft_dir: Path) -> tuple[bool, str]:
    """The draft IR's vocabulary mapping against its config.json: ``logits`` over ``draft_vocab_size``, a
    ``d2t`` output of that many entries, each mapping draft id i to a distinct target id i + d2t[i] below
    ``vocab_size``. Returns (ok, one-line description)."""
    import openvino as ov

    config = json.loads((draft_dir / "config.json").read_text(encoding="utf-8"))
    vocab, draft_vocab = config["vocab_size"], config.get("draft_vocab_size", config["vocab_size"])
    model = ov.Core().read_model(str(draft_dir / "openvino_model.xml"))
    names = {name for out in model.outputs for name in out.get_names()}
    if "d2t" not in names:
        return False, f"draft vocabulary {draft_vocab} of {vocab}, but the IR has no d2t output"
    logits_dim = model.output("logits").get_partial_shape()[-1]
    source = model.output("d2t").get_node().input_value(0).get_node()
    if source.get_type_name() != "Constant":
        return False, f"the IR's d2t output comes from a {source.get_type_name()}, not a constant"
    d2t = source.get_data()
    targets = np.arange(len(d2t)) + d2t
    ok = (len(d2t) == draft_vocab and logits_dim.is_static and logits_dim.get_length() == draft_vocab
          and bool(((targets >= 0) & (targets < vocab)).all()) and len(set(targets.tolist())) == len(d2t))
    return ok, (f"draft vocabulary {draft_vocab} of {vocab} target tokens; IR logits over {logits_dim}, d2t "
                f"{len(d2t)} entries ({int((d2t != 0).sum())} non-zero), draft ids map to target ids "
                f"{int(targets.min())}..{int(targets.max())}")


def verify(out: Path, prompts_path: Path, num_assistant_tokens=5, max_new_tokens=64) -> tuple[bool, list[dict]]:
    """Compare baseline and speculative greedy generation on every prompt; print a table.

    Passes when the draft's d2t mapping matches its config (``check_draft_vocab``), every speculative text
    equals its baseline and the draft acceptance, both the mean over prompts and pooled over all drafted
    tokens, is >= MIN_ACCEPTANCE."""
    vocab_ok, vocab_line = check_draft_vocab(out / DRAFT_DIR)
    prompts = read_prompts(prompts_path)
    base, spec = load_pipelines(out / TARGET_DIR, out / DRAFT_DIR)
    base_cfg = greedy_config(max_new_tokens)
    spec_cfg = greedy_config(max_new_tokens, num_assistant_tokens)
    rows = []
    for prompt in prompts:
        b = base.generate([prompt], base_cfg)
        s = spec.generate([prompt], spec_cfg)
        m = s.extended_perf_metrics
        accepted, drafted = m.get_num_accepted_tokens(), m.get_num_draft_tokens()
        steps = len(m.main_model_metrics.raw_metrics.m_durations)
        rows.append({"prompt": prompt, "tokens": b.perf_metrics.get_num_generated_tokens(),
                     "accepted": accepted, "drafted": drafted,
                     "acceptance": accepted / drafted if drafted else 0.0,
                     "tokens_per_step": s.perf_metrics.get_num_generated_tokens() / max(steps, 1),
                     "identical": b.texts[0] == s.texts[0], "text": b.texts[0]})
    mean_acc = statistics.mean(r["acceptance"] for r in rows)
    pooled = sum(r["accepted"] for r in rows) / max(1, sum(r["drafted"] for r in rows))
    print(f"\nVerification (GenAI CPU, f32, greedy, num_assistant_tokens={num_assistant_tokens}, "
          f"max_new_tokens={max_new_tokens})")
    print(f"{'prompt':<44} {'tokens':>6} {'accepted':>8} {'drafted':>7} {'accept':>6} {'tok/step':>8}  same")
    for r in rows:
        print(f"{fit(r['prompt'], 44)} {r['tokens']:>6} {r['accepted']:>8} {r['drafted']:>7} {r['acceptance']:>6.0%} "
              f"{r['tokens_per_step']:>8.2f}  {'yes' if r['identical'] else 'NO'}")
    print(f"mean acceptance {mean_acc:.1%}, pooled {pooled:.1%} (both required >= {MIN_ACCEPTANCE:.0%}); "
          f"identical {sum(r['identical'] for r in rows)}/{len(rows)}")
    print(f"{vocab_line}: {'ok' if vocab_ok else 'INCONSISTENT'}")
    print(f"sample reply to {rows[0]['prompt']!r}:\n{textwrap.indent(rows[0]['text'][:400], '  | ')}")
    ok = vocab_ok and all(r["identical"] for r in rows) and min(mean_acc, pooled) >= MIN_ACCEPTANCE
    print("VERIFY: PASS" if ok else "VERIFY: FAIL")
    return ok, rows


# =====================================================================================================
# Speed demo (phase 2)
# =====================================================================================================

def build_speed_demo(out: Path, demo: Path, width: int | None) -> None:
    """Widen the tiny target into ``demo/target`` and copy the draft to ``demo/draft``.

    Uses the app's own builder (``eagle_chat.core.models.speed_demo``): it edits the IR directly, giving every MLP
    extra units with random gate/up weights and exactly-zero down_proj columns, so the wide target computes
    the same function (same replies, same hidden states, so the same draft fits) at ~50M weights."""
    sys.path.insert(0, str(REPO_ROOT))
    from eagle_chat.core.models.speed_demo import DEFAULT_WIDTH
    from eagle_chat.core.models.speed_demo import build_speed_demo as build_pair

    width = width or DEFAULT_WIDTH
    shutil.rmtree(demo, ignore_errors=True)
    target, _ = build_pair(out / TARGET_DIR, out / DRAFT_DIR, demo, width)
    log(f"speed demo: {target} (MLP width {width}, {dir_size(target) / 1e6:.0f} MB) + {demo / 'draft'}")


def benchmark_speed_demo(demo: Path, prompts_path: Path, ks=(3, 4, 5, 6, 7), repeats=3, new_tokens=128) -> float:
    """Baseline vs speculative tokens/s on the speed-demo pair in ``demo``; returns the best speed-up."""
    prompts = read_prompts(prompts_path)
    base, spec = load_pipelines(demo / "target", demo / "draft")
    base_cfg = greedy_config(new_tokens)

    def run(pipe, cfg) -> tuple[float, list[str], int, int]:
        """All prompts once: (tokens/s, texts, accepted draft tokens, drafted tokens)."""
        tokens, seconds, texts, accepted, drafted = 0, 0.0, [], 0, 0
        for prompt in prompts:
            t0 = time.perf_counter()
            res = pipe.generate([prompt], cfg)
            seconds += time.perf_counter() - t0
            tokens += res.perf_metrics.get_num_generated_tokens()
            texts.append(res.texts[0])
            if cfg.num_assistant_tokens:
                accepted += res.extended_perf_metrics.get_num_accepted_tokens()
                drafted += res.extended_perf_metrics.get_num_draft_tokens()
        return tokens / seconds, texts, accepted, drafted

    run(base, base_cfg)  # warm-up
    run(spec, greedy_config(new_tokens, ks[0]))
    print(f"\nSpeed demo (GenAI CPU, f32, greedy, {new_tokens} new tokens, {len(prompts)} prompts, "
          f"median of {repeats})")
    print(f"{'K':>2} {'baseline tok/s':>15} {'speculative tok/s':>18} {'speed-up':>9} {'acceptance':>10}  same")
    best = 0.0
    for k in ks:
        spec_cfg = greedy_config(new_tokens, k)
        b_runs, s_runs = [], []
        for _ in range(repeats):  # alternate modes
            b_runs.append(run(base, base_cfg))
            s_runs.append(run(spec, spec_cfg))
        b_tps = statistics.median(r[0] for r in b_runs)
        s_tps = statistics.median(r[0] for r in s_runs)
        same = all(r[1] == b_runs[0][1] for r in b_runs + s_runs)
        acceptance = s_runs[0][2] / max(s_runs[0][3], 1)
        best = max(best, s_tps / b_tps)
        print(f"{k:>2} {b_tps:>15.1f} {s_tps:>18.1f} {s_tps / b_tps:>8.2f}x {acceptance:>10.0%}  "
              f"{'yes' if same else 'NO'}")
    print(f"best speed-up {best:.2f}x")
    return best


# =====================================================================================================
# Build
# =====================================================================================================

def build(args, work: Path) -> dict:
    """Tokenizer -> target -> draft -> exports, into ``args.out``; temporary files go to ``work``.
    Returns the figures for the summary."""
    out: Path = args.out
    rng = random.Random(args.seed)
    figures: dict = {}

    log("corpus: reading CPython stdlib sources and license texts")
    sources, prose = find_corpus_files()
    code_texts = read_texts(sources, args.corpus_mb * 1_000_000, rng)
    prose_texts = read_texts(prose, 1_000_000, rng)
    functions = [fn for _, text in code_texts for fn in extract_functions(text)]
    chat_texts = make_chat_samples(functions, rng)
    zh_lines, zh_pairs = chinese_texts(rng, args.chinese_kb * 1000)
    copy_texts = {
        "code edit": make_edit_samples(code_chunks(code_texts, rng, args.copy_samples), rng),
        "document": make_document_samples(code_texts, prose_texts, zh_lines, rng, args.copy_samples // 2),
        "tool": make_tool_samples(code_texts, prose_texts, rng, args.copy_samples // 2),
        "Chinese": make_chinese_samples(zh_pairs[len(zh_lines) // 4:], zh_lines, rng, args.copy_samples // 2),
    }
    chat_texts += [t for texts in copy_texts.values() for t in texts]
    random.Random(args.seed + 3).shuffle(chat_texts)
    zh_docs = ["\n".join(zh_lines[i:i + 40]) for i in range(0, len(zh_lines), 40)]
    raw_texts = [t for _, t in code_texts] + [t for _, t in prose_texts] + zh_docs
    figures["corpus"] = (f"{len(code_texts)} stdlib files + {len(prose_texts)} license texts + "
                         f"{sum(len(t.encode()) for t in zh_docs) / 1e3:.0f} kB of Chinese "
                         f"({sum(len(t) for t in raw_texts) / 1e6:.1f} MB), {len(chat_texts)} ChatML samples ("
                         + ", ".join(f"{len(v)} {k}" for k, v in copy_texts.items()) + ")")
    log(f"  {figures['corpus']}")

    log("tokenizer: training byte-level BPE")
    tok_dir = work / "tokenizer"
    tokenizer = train_tokenizer(raw_texts + [strip_special_strings(t) for t in chat_texts], tok_dir)
    streams = tokenize_streams(tokenizer, raw_texts, chat_texts)
    figures["tokens"] = f"{len(streams.code) / 1e6:.2f}M corpus + {len(streams.chat) / 1e6:.2f}M ChatML tokens"
    log(f"  {figures['tokens']}")

    log("target: training tiny Qwen3")
    torch.manual_seed(args.seed)
    target = make_target(tokenizer)
    figures["target_params"] = sum(p.numel() for p in target.parameters())
    figures["target"] = train_target(target, streams, Budget(args.train_steps, args.train_seconds), args.seed)
    target_hf = work / "target-hf"
    save_target(target, tokenizer, target_hf)

    log("draft: generating the target's own continuations")
    prompts = [render_chat([{"role": "user", "content": make_exchange(fn, rng)[0]}], True,
                            rng.choice([None, False])) for fn in rng.sample(functions, min(256, len(functions)))]
    # ... and the copy-heavy kinds (code edits, document answers, tool summaries, Chinese): the draft must
    # learn the target's copying too, on the target's own replies, so EAGLE-3's acceptance there is honest.
    for texts in copy_texts.values():
        prompts += [generation_prompt_of(t) for t in rng.sample(texts, min(64, len(texts)))]
    streams.extra = [generate_self_data(target, tokenizer, prompts, args.seed)]
    figures["self_tokens"] = len(streams.extra[0])

    log("draft: distilling the EAGLE-3 head")
    torch.manual_seed(args.seed + 2)
    specials = tokenizer.convert_tokens_to_ids([ENDOFTEXT, IM_START, IM_END, THINK_OPEN, THINK_CLOSE])
    draft = init_draft(target, streams, args.draft_vocab, specials)
    figures["draft_params"] = sum(p.numel() for p in draft.parameters())
    figures["draft_vocab"] = (f"{args.draft_vocab} of {VOCAB_SIZE} target tokens, covering "
                              f"{draft_vocab_coverage(streams, draft.d2t + torch.arange(args.draft_vocab)):.1%} "
                              "of the target's own continuations")
    log(f"  draft vocabulary: {figures['draft_vocab']}")
    figures["draft"] = train_draft(draft, target, streams, Budget(args.distill_steps, args.distill_seconds),
                                   args.ttt_steps, args.seed)

    log("export: OpenVINO IR with optimum-cli")
    stage = work / "out"
    save_draft_hf(draft, tokenizer, stage / HF_DRAFT_DIR)
    export_openvino(target_hf, stage / TARGET_DIR)
    export_openvino(stage / HF_DRAFT_DIR, stage / DRAFT_DIR, trust_remote_code=True)
    leaks = machine_paths(stage, (work, out.resolve()))
    if leaks:
        sys.exit("error: machine paths in the built models (not installed):\n  " + "\n  ".join(leaks))
    install_outputs(stage, out)
    return figures


def install_outputs(stage: Path, out: Path) -> None:
    """Move the finished model folders from ``stage`` into ``out``, each swapped in by a rename, so a
    failed build leaves the previous models intact and readers never see a half-written folder."""
    for name in (TARGET_DIR, DRAFT_DIR, str(HF_DRAFT_DIR)):
        final, new, old = out / name, out / f"{name}.new", out / f"{name}.old"
        for leftover in (new, old):
            shutil.rmtree(leftover, ignore_errors=True)
        shutil.copytree(stage / name, new)
        if final.exists():
            os.replace(final, old)
        os.replace(new, final)
        shutil.rmtree(old, ignore_errors=True)


def print_summary(out: Path, figures: dict, seconds: float) -> None:
    """Sizes, training figures and build time."""
    t, d = figures["target"], figures["draft"]
    print("\nSummary")
    print(f"  corpus:  {figures['corpus']}; {figures['tokens']}")
    print(f"  target:  {figures['target_params'] / 1e6:.2f}M params, {t['steps']} steps, train loss "
          f"{t['train_loss_first']:.2f} -> {t['train_loss_last']:.2f}, held-out loss "
          f"{t['eval_loss_start']:.2f} -> {t['eval_loss_end']:.2f}")
    print(f"  draft:   {figures['draft_params'] / 1e6:.2f}M params, {d['steps']} steps, loss "
          f"{d['loss_first']:.2f} -> {d['loss_last']:.2f}, top-1 agreement per TTT step {d['agreement_last']}")
    print(f"  draft vocabulary: {figures['draft_vocab']}")
    total = 0
    for name in (TARGET_DIR, DRAFT_DIR, str(HF_DRAFT_DIR)):
        size = dir_size(out / name)
        total += size
        print(f"  {out / name}: {size / 1e6:.2f} MB")
    print(f"  total {total / 1e6:.2f} MB; build time {seconds / 60:.1f} min")
    if "verify" in figures:
        print(f"  verify:  {figures['verify']}")


def parse_args(argv=None) -> argparse.Namespace:
    """Command line."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", type=Path, help="output folder, e.g. tests/models (required unless --set-template)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--train-steps", type=int, default=900, help="target pre-training steps (default 900)")
    p.add_argument("--train-seconds", type=float, help="train the target for this long instead (not reproducible)")
    p.add_argument("--distill-steps", type=int, default=600, help="draft distillation steps (default 600)")
    p.add_argument("--distill-seconds", type=float, help="distil for this long instead (not reproducible)")
    p.add_argument("--ttt-steps", type=int, default=5, help="training-time-test steps of the draft (default 5)")
    p.add_argument("--draft-vocab", type=int, default=DRAFT_VOCAB_SIZE,
                   help=f"draft vocabulary: the most frequent target tokens + specials, mapped by d2t/t2d "
                        f"(default {DRAFT_VOCAB_SIZE} of {VOCAB_SIZE})")
    p.add_argument("--corpus-mb", type=int, default=8, help="MB of stdlib source to read (default 8)")
    p.add_argument("--copy-samples", type=int, default=3000,
                   help="code-edit ChatML samples (and half as many each of document answers, tool exchanges and "
                        "Chinese chats; default 3000)")
    p.add_argument("--chinese-kb", type=int, default=400, help="kB of Chinese text for the corpus (default 400)")
    p.add_argument("--embedder", action="store_true",
                   help="build only the tiny embedder and reranker (tools/build_tiny_embedder.py) into --out")
    p.add_argument("--verify", action="store_true", help="verify the pair with OpenVINO GenAI after building")
    p.add_argument("--verify-only", action="store_true", help="only verify models already in --out")
    p.add_argument("--prompts", type=Path, default=DEFAULT_PROMPTS, help="prompts for --verify / --speed-demo")
    p.add_argument("--speed-demo", action="store_true",
                   help="also build and benchmark the speed-demo pair (~100 MB; do not commit)")
    p.add_argument("--speed-demo-dir", type=Path, help="where to put the speed-demo pair (default <out>/speed-demo)")
    p.add_argument("--set-template", type=Path, nargs="+", metavar="DIR",
                   help="only write CHAT_TEMPLATE into these built model folders (tokenizer_config.json and the "
                        "tokenizer IRs' rt_info), without retraining; --out is then not needed")
    p.add_argument("--speed-width", type=int,
                   help="MLP width of the speed-demo target (default: the app's, 26000, ~50M weights)")
    args = p.parse_args(argv)
    if args.out is None and not args.set_template:
        p.error("--out is required")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.set_template:
        for folder in args.set_template:
            changed = set_chat_template(folder)
            print(f"{folder}: " + (", ".join(p.name for p in changed) if changed else "already up to date"))
        return 0
    if args.embedder:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import build_tiny_embedder

        build_tiny_embedder.build(args.out, args.seed)
        return 0
    configure_environment()
    torch.set_num_threads(max(1, os.cpu_count() or 1))
    figures, build_seconds = None, 0.0
    if not args.verify_only:
        seed_everything(args.seed)
        start = time.monotonic()
        args.out.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix="tiny-models-") as tmp:
            figures = build(args, Path(tmp))
        build_seconds = time.monotonic() - start

    status = 0
    if args.verify or args.verify_only:
        ok, rows = verify(args.out, args.prompts)
        status = 0 if ok else 1
        if figures:
            figures["verify"] = (
                f"mean draft acceptance {statistics.mean(r['acceptance'] for r in rows):.1%}, speculative == "
                f"baseline for {sum(r['identical'] for r in rows)}/{len(rows)} prompts: {'PASS' if ok else 'FAIL'}")
    if args.speed_demo:
        demo = args.speed_demo_dir or args.out / SPEED_DEMO_DIR
        build_speed_demo(args.out, demo, args.speed_width)
        benchmark_speed_demo(demo, args.prompts)
    if figures:
        print_summary(args.out, figures, build_seconds)
    return status


if __name__ == "__main__":
    sys.exit(main())
