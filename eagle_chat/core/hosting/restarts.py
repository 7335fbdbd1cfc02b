"""When a crashed engine host is started again, and when it is not: :class:`RestartPolicy`.

A host that crashes again and again (a driver fault, a draft that trips GenAI's heap bug every time) must
not be restarted in a loop: after ``MAX_CRASHES`` within ``WINDOW_S`` the app stops restarting it and
offers what is known to help instead (prefix caching off, the full-vocabulary draft).
"""

from __future__ import annotations

import time
from collections import deque

MAX_CRASHES = 3
WINDOW_S = 600.0


class RestartPolicy:
    def __init__(self, max_crashes: int = MAX_CRASHES, window_s: float = WINDOW_S, clock=time.monotonic):
        self.max_crashes = max_crashes
        self.window_s = window_s
        self._clock = clock
        self._crashes: deque[float] = deque()

    def crashed(self) -> bool:
        """Count a crash now; True if the host may be restarted, False once crashes come too often."""
        now = self._clock()
        self._crashes.append(now)
        while self._crashes and now - self._crashes[0] > self.window_s:
            self._crashes.popleft()
        return len(self._crashes) < self.max_crashes

    def reset(self) -> None:
        """A load the user asked for starts the count again."""
        self._crashes.clear()
