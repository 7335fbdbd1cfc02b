"""The test kit: what the test modules share, defined once.

- :mod:`tests.helpers.window` — the real main window on the tiny pair (the ``open_window`` factory, with the
  warm start and the next-turn prefill off unless a test asks for them), sending like a user, menus.
- :mod:`tests.helpers.language` — a zh_CN ``QTranslator`` built for a test (the ``chinese_translator``
  fixture).
- :mod:`tests.helpers.theme` — the application switched to the dark palette and back (``dark_app``, the
  ``palette`` fixture).
- :mod:`tests.helpers.polling` — ``wait_until``: poll a condition outside Qt's event loop (servers, child
  processes) with a bound against a hang.

The fixtures are registered for the whole suite by ``tests/conftest.py`` (``pytest_plugins``).
"""
