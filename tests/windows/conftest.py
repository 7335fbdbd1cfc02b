"""Windows behaviours reproduced on Linux: the fixtures they share."""

from tests.windows.locked_files import windows_locks  # noqa: F401 - a fixture
