"""Why a reply failed, as the engine host, the worker and the controller say it — never read from a sentence.

The kind decides an API client's HTTP status and the window's wording:

* ``REFUSED``: the request cannot be run as asked (too long for the context, sampling with a draft, …) — 400
* ``FAULT``: the engine failed on its own (an OpenVINO error) — 500
* ``CRASHED``: the engine host process died mid-reply (a GenAI abort, a kill) — 500, code ``engine_crashed``;
  the host is restarted and the next request runs
* ``UNAVAILABLE``: no model, or the server is shutting down — 503, retry later
* ``STOPPED``: cancelled while it waited, before it produced anything — 503, retry later
"""

from __future__ import annotations

REFUSED = "refused"
FAULT = "fault"
CRASHED = "crashed"
UNAVAILABLE = "unavailable"
STOPPED = "stopped"
FAILURES = (REFUSED, FAULT, CRASHED, UNAVAILABLE, STOPPED)
