"""Sampling settings on a GenAI GenerationConfig, and the seed each sampled reply gets.

OpenVINO GenAI's ``GenerationConfig.rng_seed`` defaults to 0, and every ``generate`` call starts its random
generator from it: left alone, every sampled reply to the same prompt is the same reply (Regenerate with
sampling on gave identical text, plain and prompt lookup alike — checked on 2026.4.1 with the tiny target).
So a reply samples from a fresh seed unless one is asked for (the API's ``seed``, OpenAI's best-effort
reproducibility), and the seed used is what ``seed_for`` returned.
"""

from __future__ import annotations

import secrets

SEED_MAX = 2**32 - 1  # GenAI's rng_seed is a size_t; a 32-bit range keeps it the same on every platform


def seed_for(asked: int | None) -> int:
    """The seed a sampled reply runs with: ``asked`` (reduced into GenAI's range), else a fresh random one."""
    return asked % (SEED_MAX + 1) if asked is not None else secrets.randbelow(SEED_MAX + 1)


def apply(config, settings) -> None:
    """Temperature, top-p and the seed, for a sampled reply (``settings.do_sample``); nothing otherwise."""
    if settings.do_sample:
        config.temperature = float(settings.temperature)
        config.top_p = float(settings.top_p)
        config.rng_seed = seed_for(settings.seed)
