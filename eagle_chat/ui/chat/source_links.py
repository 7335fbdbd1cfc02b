"""A grounded reply's citations in the chat view: each ``[n]`` the model wrote becomes a link to passage n,
and under the reply a Sources line lists every passage it was given ("[1] report.pdf, page 2"), so what was
retrieved is visible even when the model cites nothing. A click opens the passage's preview
(:mod:`eagle_chat.ui.chat.source_preview`). Links are ``source:MESSAGE_ID:N``.
"""

from __future__ import annotations

import html
import re

from eagle_chat.core.storage.conversation import Message
from eagle_chat.core.storage.sources import where
from eagle_chat.ui.widgets import theme
from eagle_chat.ui.words.i18n import translate

LINK_PREFIX = "source:"
_CITATION_OUTSIDE_TAGS = re.compile(r"(<pre\b.*?</pre>|<[^>]*>)|\[(\d{1,3})\]", re.DOTALL | re.IGNORECASE)


def link_citations(body: str, message: Message) -> str:
    """The reply's rendered HTML with each ``[n]`` of its passages a link (never inside code or a tag)."""
    known = {s["n"] for s in message.sources or []}
    if not known:
        return body

    def linked(match: re.Match) -> str:
        if match.group(1) is not None or int(match.group(2)) not in known:
            return match.group(0)
        n = match.group(2)
        return f'<a href="{LINK_PREFIX}{message.id}:{n}" style="text-decoration:none;">[{n}]</a>'

    return _CITATION_OUTSIDE_TAGS.sub(linked, body)


def sources_html(message: Message, colours: theme.Colours | None = None) -> str:
    """The Sources line under a grounded reply ("" for others)."""
    if not message.sources or message.id is None:
        return ""
    colour = (colours or theme.colours()).muted
    links = [f'<a href="{LINK_PREFIX}{message.id}:{s["n"]}" style="color:{colour};">'
             f'[{s["n"]}] {html.escape(place(s))}</a>' for s in message.sources]
    label = html.escape(translate("SourceLinks", "Sources"))
    return f'<p style="color:{colour};">{label}: ' + " · ".join(links) + "</p>"


def place(source: dict) -> str:
    """``report.pdf, page 2`` in the current language."""
    if source.get("page") is None:
        return where(source)
    return translate("SourceLinks", "{file}, page {page}").format(file=where(dict(source, page=None)),
                                                                  page=source["page"])


def source_of(message: Message | None, n: int) -> dict | None:
    return next((s for s in (message.sources or []) if s["n"] == n), None) if message is not None else None
