"""Entry point of the frozen ``eagle-chat`` executable (PyInstaller): the same as the ``eagle-chat`` command.

It also understands ``eagle-chat -m eagle_chat.<module> ARGS…``, which is what ``python -m`` does: the app
starts its helper processes (model download, pair verification) as ``[sys.executable, "-m", module, …]``,
and in a bundle ``sys.executable`` is this program. Only EagleChat's own modules can be run this way.

``freeze_support()`` first: on Windows and macOS a frozen program that (directly or through a library)
starts a multiprocessing child would otherwise re-run itself as the child.
"""

import multiprocessing
import sys

APP_PACKAGE = "eagle_chat"


def run_module(module: str, args: list[str]) -> int:
    """``python -m module args…`` inside the bundle, for the app's own modules only."""
    import runpy

    import eagle_chat  # noqa: F401 - telemetry off before anything imports openvino

    if module != APP_PACKAGE and not module.startswith(APP_PACKAGE + "."):
        print(f"eagle-chat: -m can only run EagleChat's own modules in this build, not {module!r}", file=sys.stderr)
        return 2
    sys.argv = [module, *args]
    runpy.run_module(module, run_name="__main__", alter_sys=True)
    return 0


if __name__ == "__main__":
    multiprocessing.freeze_support()
    argv = sys.argv[1:]
    if len(argv) >= 2 and argv[0] == "-m":
        sys.exit(run_module(argv[1], argv[2:]))
    from eagle_chat.cli import main  # importing eagle_chat blocks telemetry before openvino loads

    sys.exit(main())
