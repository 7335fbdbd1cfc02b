#!/usr/bin/env bash
# Installs everything the test suite needs into .venv (created if missing) and runs it.
# Used as-is by the README and by .ci/run. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
python="${PYTHON:-python3}"
[ -x .venv/bin/python ] || "$python" -m venv .venv
pip=(.venv/bin/python -m pip install --quiet --disable-pip-version-check)
# The draft-export test runs optimum-intel, which needs torch. Install the CPU build first and alone,
# then pin it, or pip pulls a multi-GB CUDA build as a dependency.
"${pip[@]}" -c tools/constraints-torch.txt torch
"${pip[@]}" -c tools/constraints-torch.txt -e ".[test,build-models]"
# optimum-intel pulls a torchvision that cannot load beside the CPU torch; nothing here needs it.
.venv/bin/python -m pip uninstall --quiet --yes torchvision >/dev/null 2>&1 || true
# The browser test (tests/serving/test_callers.py) drives Debian's headless Chromium; CI runs this as root
# on a fresh machine, so install it there when it is missing (elsewhere the test says how).
if ! command -v chromium >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
export QT_QPA_PLATFORM=offscreen
# Two worker processes (EAGLE_CHAT_TEST_WORKERS=0 runs in this one, e.g. to debug with -s or pdb). A test whose
# worker process died of GenAI's rare heap abort (see pyproject.toml) runs once more, and so does one whose engine
# host died of it mid-request (the server's 500 names it: "killed by SIGABRT", seen on the d2t pair in a clean-
# checkout run); failed assertions do not.
exec .venv/bin/python -m pytest -q -n "${EAGLE_CHAT_TEST_WORKERS:-2}" --reruns 1 --only-rerun "crashed while running" \
    --only-rerun "killed by SIGABRT" "$@"
