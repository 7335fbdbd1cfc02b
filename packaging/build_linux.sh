#!/usr/bin/env bash
# Builds the EagleChat one-folder bundle with PyInstaller and proves it works.
#
#   packaging/build_linux.sh [DIST_DIR]        (default: build/dist; the bundle is DIST_DIR/eagle-chat)
#
# After the build it runs `<bundle>/eagle-chat --self-test` with an almost empty environment (env -i, a
# throw-away HOME, offscreen Qt), so nothing from the build venv or the caller's shell can prop it up,
# checks the run wrote nothing into that HOME (no ~/intel telemetry ids, no user folders), and prints the
# bundle size. Exit status: 0 only when the build and the self-test passed.
#
# Environment: PYTHON (default .venv/bin/python, must have PyInstaller), EAGLE_CHAT_TINY_MODELS (folder
# holding tiny-qwen3/ and tiny-qwen3-eagle3/, default tests/models), WORK_DIR (PyInstaller's work folder,
# default: pyinstaller-work next to DIST_DIR).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
dist="$(realpath -m "${1:-$root/build/dist}")"
work="$(realpath -m "${WORK_DIR:-$(dirname "$dist")/pyinstaller-work}")"
python="${PYTHON:-$root/.venv/bin/python}"
bundle="$dist/eagle-chat"

if ! "$python" -m PyInstaller --version >/dev/null 2>&1; then
    echo "build_linux.sh: PyInstaller is not installed for $python; run: $python -m pip install pyinstaller" >&2
    exit 2
fi

echo "== building with PyInstaller $("$python" -m PyInstaller --version) into $bundle"
started=$(date +%s.%N)
(cd "$root" && "$python" -m PyInstaller --noconfirm --log-level WARN \
    --distpath "$dist" --workpath "$work" packaging/eagle_chat.spec)
finished=$(date +%s.%N)
build_seconds=$(awk -v a="$started" -v b="$finished" 'BEGIN { printf "%.1f", b - a }')
echo "build time: ${build_seconds} s"
echo "BUILD_SECONDS=$build_seconds"

size_human=$(du -sh "$bundle" | cut -f1)
size_bytes=$(du -sb "$bundle" | cut -f1)
echo "bundle size: $size_human ($size_bytes bytes) in $bundle"
echo "BUNDLE_SIZE_BYTES=$size_bytes"

sandbox="$(mktemp -d "${TMPDIR:-/tmp}/eagle-chat-selftest.XXXXXX")"
trap 'rm -rf "$sandbox"' EXIT
mkdir -m 700 "$sandbox/home" "$sandbox/run"
status=0
# Both programs of the bundle: eagle-chat (console: the CLI) and EagleChat (windowed: the shortcut's).
for program in eagle-chat EagleChat; do
    echo "== self-test of the bundle's $program in an empty environment"
    program_status=0
    env -i HOME="$sandbox/home" PATH=/usr/bin:/bin LANG=C.UTF-8 TMPDIR="$sandbox" \
        XDG_RUNTIME_DIR="$sandbox/run" QT_QPA_PLATFORM=offscreen \
        "$bundle/$program" --self-test || program_status=$?
    echo "SELF_TEST_STATUS_$program=$program_status"
    [ "$program_status" -eq 0 ] || status=$program_status
done

left_behind=$(find "$sandbox/home" -mindepth 1 | head -20)
if [ -n "$left_behind" ]; then
    echo "the self-test wrote into its HOME (it must not):" >&2
    echo "$left_behind" >&2
    [ "$status" -ne 0 ] || status=1
else
    echo "HOME untouched by the self-test (no ~/intel, no user folders)"
fi
echo "SELF_TEST_STATUS=$status"
exit "$status"
