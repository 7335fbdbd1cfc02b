"""EagleChat: offline chat on local LLMs with OpenVINO GenAI EAGLE-3 speculative decoding.

Importing the package first switches off usage telemetry (see :mod:`eagle_chat.privacy`), so that no
later ``import openvino`` anywhere in the app can send anything.
"""

from eagle_chat import privacy as _privacy

_privacy.apply()

__version__ = "0.1.0"
