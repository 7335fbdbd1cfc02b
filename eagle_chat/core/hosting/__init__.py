"""The engine host: the process that owns the OpenVINO pipelines, and the app's client of it.

OpenVINO GenAI can abort its process (glibc heap corruption inside EAGLE-3 generation, ~2 per 10,000
replies measured here). The pipelines therefore live in a child process of their own — :mod:`.host_process`
runs there — and the app talks to it through :class:`.client.EngineHost` over a ``multiprocessing`` pipe:
requests go one way, chunks, steps, results and errors come back (:mod:`.protocol`). A crash costs the
reply in flight; a load is cancelled by ending the process; an unload gives the memory back to the OS.
"""
