"""What only a draft *tree* yields, so a test can tell it from a chain (see
/work/research/genai-facts.md §4 and §6, measured on the CPU continuous-batching EAGLE-3 path):

- GenAI verifies min(K, tree size) candidates per step, tree size = branching² · (depth − 1) + branching;
  a chain verifies K. The first step (the prompt) and the last are not counted in the draft tokens.
- A step gains at most depth + 1 tokens; a chain of K gains up to K + 1.
"""


def tree_size(depth: int, branching: int) -> int:
    return branching * branching * (depth - 1) + branching


def verification_steps(generated_tokens: int, tokens_per_step: float) -> int:
    return round(generated_tokens / tokens_per_step)


def assert_drafted_as_tree(k: int, generated_tokens: int, tokens_per_step: float, draft_tokens: int,
                           depth: int, branching: int) -> None:
    steps = verification_steps(generated_tokens, tokens_per_step)
    assert draft_tokens == min(k, tree_size(depth, branching)) * (steps - 2), (k, draft_tokens, steps)
    assert tokens_per_step <= depth + 1, (k, tokens_per_step)
