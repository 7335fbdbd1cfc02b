"""EmbedderPull: the one click that turns "searched by their words only" into search by meaning.

The keyword-only notice offers the catalog's suggested embedder with its download size. A click pulls it the
way `eagle-chat models pull` and the Get models dialog do (:func:`~eagle_chat.core.acquisition.pulls.
plan_document_model_pull`, run step by step by :class:`~eagle_chat.ui.models.pull_runner.PullRunner`, from the
source and mirror the dialog remembers), shows its progress in the documents bar (whose Stop cancels it,
keeping the partial download for a resume), and once it is registered indexes the open conversation's files
again: nothing in them changed, so that run only gives their chunks the embedder's vectors.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal, Slot

from eagle_chat.core.acquisition import pulls
from eagle_chat.core.acquisition.pull_steps import Progress
from eagle_chat.core.documents import retrieval
from eagle_chat.core.errors import UserError
from eagle_chat.core.models.catalog import load_catalog
from eagle_chat.core.models.document_models import DocumentModelRegistry
from eagle_chat.ui.models.pull_runner import PullRunner
from eagle_chat.ui.words import texts
from eagle_chat.ui.words.core_text import user_error_text


class EmbedderPull(QObject):
    sig_ready = Signal(str)
    """The embedder was pulled and registered; carries its name."""

    def __init__(self, documents):
        super().__init__(documents)
        self.documents = documents
        self.runner = PullRunner(self)
        self.runner.sig_progress.connect(self._progress)
        self.runner.sig_finished.connect(self._finished)
        self.runner.sig_failed.connect(self._failed)
        self.runner.sig_cancelled.connect(self._cancelled)

    @property
    def running(self) -> bool:
        return self.runner.running

    def offer(self) -> tuple[str, Callable[[], None]] | None:
        """The notice's button (label, action), or None when there is nothing to offer (already pulled, not in
        the catalog, a pull under way)."""
        entry = _suggested()
        if entry is None or self.running or DocumentModelRegistry().get(entry.name) is not None:
            return None
        size = retrieval.suggested_embedder_size()
        label = self.tr("Get {name} ({size})").format(name=entry.name, size=size) if size else \
            self.tr("Get {name}").format(name=entry.name)
        return label, self.start

    def start(self) -> bool:
        """Start the pull; False (and the reason in the notice) when it cannot start."""
        entry = _suggested()
        if entry is None or self.running:
            return False
        settings = self.documents.window.settings
        source = settings.download_source if settings.download_source in ("hf", "modelscope") else "hf"
        endpoint = (settings.hf_endpoint if source == "hf" else settings.modelscope_endpoint) or None
        try:
            plan = pulls.plan_document_model_pull(entry, source=source, endpoint=endpoint)
        except (UserError, OSError) as error:
            self.documents.window.show_notice(user_error_text(error), error=True)
            return False
        self.runner.start(plan)
        self.documents.bar.show_progress(self.tr("Getting {name}…").format(name=entry.name), running=True)
        return True

    def cancel(self) -> None:
        self.runner.cancel()

    def close(self) -> None:
        """For closing the window: stop a pull under way and wait for its process (the download resumes later)."""
        if self.running:
            self.runner.cancel()
            self.runner.wait_stopped()

    # --- the runner's signals -----------------------------------------------------------------------------
    @Slot(object)
    def _progress(self, progress: Progress) -> None:
        self.documents.bar.show_progress(f"{progress.step} — {texts.progress_text(progress)}", running=True)

    @Slot(object)
    def _finished(self, model) -> None:
        self.documents.bar.show_progress(self.tr("{name} is ready: your documents are now searched by meaning "
                                                 "too.").format(name=model.name))
        self.sig_ready.emit(model.name)

    @Slot(str)
    def _failed(self, message: str) -> None:
        self.documents.bar.show_progress("")
        self.documents.window.show_notice(self.tr("The embedding model could not be downloaded: {reason} Your "
                                                  "documents are still searched by their words.").format(
            reason=message), error=True)

    @Slot(str)
    def _cancelled(self, message: str) -> None:
        self.documents.bar.show_progress(message)


def _suggested():
    """The catalog's entry for the suggested embedder (None: the catalog has none)."""
    return load_catalog().document_model(retrieval.SUGGESTED_EMBEDDER, "embedding")
