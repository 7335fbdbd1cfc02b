"""``eagle-chat bench``: baseline versus EAGLE-3 on the same prompts, printed as a table (and JSON)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from eagle_chat import paths
from eagle_chat.core.device_kinds import DEVICE_KINDS
from eagle_chat.core.errors import UserError
from eagle_chat.paths import add_home_argument, apply_home


def bench_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="eagle-chat bench",
        description=(
            "Baseline versus EAGLE-3 speculative decoding on the same prompts: warm-up, alternating "
            "modes, repeats, medians. Without --model/--draft it runs the bundled tiny pair."
        ),
    )
    parser.add_argument("--model", type=Path, help="target model folder (OpenVINO IR)")
    parser.add_argument("--draft", type=Path, help="EAGLE-3 draft folder (OpenVINO IR)")
    parser.add_argument("--device", type=str.upper, choices=list(DEVICE_KINDS), help="default CPU (with "
                        "--conversation: the app's device)")
    parser.add_argument("--prompt", action="append", default=[], help="a prompt (repeatable)")
    parser.add_argument("--prompts-file", type=Path, help="a file with one prompt per line")
    parser.add_argument("--max-new-tokens", type=int, help="default 128 (with --conversation: the app's)")
    parser.add_argument("--k", type=int, nargs="+", help="assistant tokens per step, one or several (default 5; "
                        "with --tune 3 4 5 6 7; with --conversation: the app's)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--precision",
        choices=["f32", "default"],
        help="f32 (default; with --conversation: the app's) pins f32 inference and KV cache so greedy outputs "
        "compare exactly; 'default' uses the device's fastest precision (bf16/f16), where outputs may part",
    )
    parser.add_argument(
        "--baseline",
        choices=["draft-free", "same"],
        default="draft-free",
        help="'draft-free' (default): baseline on a second pipeline without the draft, the plain LLMPipeline "
        "of the OpenVINO samples (needs memory for two copies of the model); 'same': baseline on the "
        "draft-enabled pipeline with 0 draft tokens, as the app does (one copy; measured 14-16%% slower "
        "than a plain pipeline on the tiny pair)",
    )
    parser.add_argument(
        "--tree",
        type=parse_tree,
        action="append",
        default=[],
        metavar="DEPTH:BRANCHING",
        help="also try EAGLE-3 tree drafting with this depth and branching factor, with every K >= DEPTH "
        "(repeatable, e.g. --tree 3:2 --tree 4:2)",
    )
    parser.add_argument(
        "--tune",
        action="store_true",
        help="sweep K, pick the fastest whose output matches baseline, and save it as the default for this "
        "model, draft and device",
    )
    parser.add_argument("--json", type=Path, help="also write every run and the summary as JSON here")
    parser.add_argument(
        "--conversation", type=int, metavar="N",
        help="one N-turn conversation instead: user turns taken in order from the prompts (cycling), each reply "
        "fed back as history, with the app's chat settings; a table per turn (TTFT, tokens/s, prompt tokens)",
    )
    parser.add_argument("--no-prefix-cache", action="store_true",
                        help="build the pipelines with prefix caching off (the app has it on unless its setting is off)")
    parser.add_argument("--compare-cache", action="store_true",
                        help="with --conversation: run the same conversation with prefix caching off too, in the "
                        "same run, and say whether the texts are identical")
    parser.add_argument("--no-next-turn-prefill", action="store_true",
                        help="with --conversation: do not prefill the conversation for its next turn after each "
                        "reply (the app does, in the background, while the user types; 'prefill ms' is that work)")
    add_home_argument(parser)
    return parser


def parse_tree(text: str) -> tuple[int, int]:
    try:
        depth, branching = (int(part) for part in text.split(":"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected DEPTH:BRANCHING such as 3:2, got {text!r}") from None
    if depth < 1 or branching < 1:
        raise argparse.ArgumentTypeError("tree depth and branching factor must be at least 1")
    return depth, branching


def read_prompts(args: argparse.Namespace, parser: argparse.ArgumentParser) -> list[str]:
    prompts = list(args.prompt)
    if args.prompts_file:
        try:
            lines = args.prompts_file.read_text(encoding="utf-8").splitlines()
        except OSError as error:
            parser.error(f"cannot read --prompts-file: {error}")
        prompts += [line.strip() for line in lines if line.strip()]
    return prompts


def main(argv: list[str]) -> int:
    from eagle_chat.core.generation.engine import PipelineSpec
    from eagle_chat.core.measure import bench

    parser = bench_parser()
    args = parser.parse_args(argv)
    apply_home(args)
    if (args.model is None) != (args.draft is None):
        parser.error("give both --model and --draft, or neither (for the bundled tiny pair)")
    prompts = read_prompts(args, parser) or list(bench.DEFAULT_PROMPTS)
    if args.conversation is not None:
        return conversation_main(args, parser, prompts)
    if args.compare_cache:
        parser.error("--compare-cache needs --conversation N")
    args.device, args.precision = args.device or "CPU", args.precision or "f32"
    args.max_new_tokens = 128 if args.max_new_tokens is None else args.max_new_tokens
    ks = args.k or (list(bench.TUNE_KS) if args.tune else [5])
    if any(k < 1 or k > 16 for k in ks):
        parser.error("--k values must be between 1 and 16")
    if args.max_new_tokens < 1 or args.repeats < 1:
        parser.error("--max-new-tokens and --repeats must be at least 1")
    spec = PipelineSpec(
        target_dir=args.model or paths.tiny_target_dir(),
        draft_dir=args.draft or paths.tiny_draft_dir(),
        device=args.device,
        precision=args.precision,
        cache_dir=paths.compiled_cache_dir(),
        prefix_cache=not args.no_prefix_cache,
    )
    try:
        report = bench.run_bench(
            spec,
            prompts,
            ks=ks,
            repeats=args.repeats,
            max_new_tokens=args.max_new_tokens,
            baseline=args.baseline,
            trees=args.tree,
            progress=lambda msg: print(f"# {msg}", file=sys.stderr, flush=True),
        )
    except UserError as error:
        print(f"eagle-chat bench: {error}", file=sys.stderr)
        return 2
    if args.tune:
        best = bench.choose(report)
        report.chosen_k, report.chosen_tree = best.k, best.tree
        save_tuned_k(spec, best.k, best.tree)
    print(f"device {report.device}, precision {report.precision}, baseline from the {report.baseline_source} "
          f"pipeline, {len(prompts)} prompts x {args.repeats} repeats, {args.max_new_tokens} new tokens, medians")
    print(report.table())
    for s in report.summary:
        if s.first_difference:
            d = s.first_difference
            print(f"K={s.k}: prompt {d['prompt_index']}: the answers part at character {d['index']}: "
                  f"baseline “{d['baseline']}” vs EAGLE-3 “{d['speculative']}”")
    if args.json:
        report.write_json(args.json)
        print(f"JSON written to {args.json}")
    if args.tune:
        tree = f", tree {report.chosen_tree}" if report.chosen_tree else ""
        print(f"saved K={report.chosen_k}{tree} as the default for this model, draft and device")
    return 0


def conversation_main(args: argparse.Namespace, parser: argparse.ArgumentParser, prompts: list[str]) -> int:
    """``bench --conversation N``: one N-turn conversation with the app's chat settings, a row per turn."""
    from eagle_chat.core.generation.engine import GenerationSettings, PipelineSpec
    from eagle_chat.core.measure.conversation import run_conversation
    from eagle_chat.core.measure.tuning import tuned_choice
    from eagle_chat.settings import load_settings

    if args.tune or args.tree or (args.k and len(args.k) > 1):
        parser.error("--conversation runs one configuration: no --tune, --tree or several --k")
    if args.conversation < 1 or (args.max_new_tokens is not None and args.max_new_tokens < 1):
        parser.error("--conversation and --max-new-tokens must be at least 1")
    app, _ = load_settings(paths.settings_file())
    target, draft = args.model or paths.tiny_target_dir(), args.draft or paths.tiny_draft_dir()
    device = args.device or app.device
    k = args.k[0] if args.k else app.num_assistant_tokens
    depth, branching = tuned_choice(app, target, draft, device).tree_for(k)
    settings = GenerationSettings(
        max_new_tokens=args.max_new_tokens or app.max_new_tokens, speculative=app.speculative,
        num_assistant_tokens=k, tree_depth=depth, branching_factor=branching, thinking=app.thinking)
    spec = PipelineSpec(target, draft, device=device, precision=args.precision or app.precision,
                        cache_dir=paths.compiled_cache_dir(), prefix_cache=app.prefix_cache and not args.no_prefix_cache)
    try:
        report = run_conversation(spec, prompts, args.conversation, settings, system_prompt=app.system_prompt,
                                  compare_cache=args.compare_cache and spec.prefix_cache,
                                  next_turn_prefill=not args.no_next_turn_prefill,
                                  progress=lambda msg: print(f"# {msg}", file=sys.stderr, flush=True))
    except UserError as error:
        print(f"eagle-chat bench: {error}", file=sys.stderr)
        return 2
    mode = f"EAGLE-3 K={k}" + (f" tree {depth}x{branching}" if depth else "") if settings.speculative else "baseline"
    print(f"{args.conversation}-turn conversation, device {device}, precision {spec.precision}, {mode}, "
          f"{settings.max_new_tokens} max new tokens, {len(prompts)} prompts cycling")
    print(report.table())
    if report.identical is not None:
        print(f"texts with prefix caching on and off identical: {'yes' if report.identical else 'NO'}")
    if args.json:
        report.write_json(args.json)
        print(f"JSON written to {args.json}")
    return 0


def save_tuned_k(spec, k: int, tree: str | None = None) -> None:
    """Remember the tuned K (and draft tree, if one won); the app uses them as the default from then on."""
    from eagle_chat.core.measure.tuning import remember_tuned
    from eagle_chat.settings import load_settings, save_settings

    path = paths.settings_file()
    settings, _ = load_settings(path)
    remember_tuned(settings, spec.target_dir, spec.draft_dir, spec.device, k, tree)
    save_settings(settings, path)
