"""Downloads through the real huggingface_hub and ModelScope clients from a hub on 127.0.0.1.

Each test runs the download worker as the app does (a child process started by core.acquisition.plan), against
tests/fake_hub.py serving the tiny models in the hubs' layouts, and checks what ends up on disk and in the
registry — including after dropped connections, killed transfers, cancels and corrupted bytes.
"""

from __future__ import annotations

import filecmp
import time
from pathlib import Path

import pytest

from eagle_chat import paths
from eagle_chat.core.acquisition import pulls, runner, staging, pull_steps
from eagle_chat.core.models.registry import ModelRegistry
from tests.fake_hub import TINY_TARGET_REPO
from tests.helpers.polling import wait_until

BIG_FILE = "openvino_model.bin"


def download_step(hub, source: str, tmp_path: Path) -> pull_steps.DownloadStep:
    revision = "main" if source == "hf" else "master"
    return pull_steps.DownloadStep(source, TINY_TARGET_REPO, revision, tmp_path / "staging", tmp_path / "final",
                                endpoint=hub.url)


def assert_same_tree(repo_folder: Path, downloaded: Path) -> None:
    files = sorted(p.relative_to(repo_folder) for p in repo_folder.rglob("*") if p.is_file())
    assert files, repo_folder
    for rel in files:
        assert filecmp.cmp(repo_folder / rel, downloaded / rel, shallow=False), rel


def cancel_after(progresses: list, min_bytes: int):
    """A should_cancel callback that fires once the worker reported ``min_bytes`` of the big file."""
    return lambda: any(p.file == BIG_FILE and (p.done or 0) >= min_bytes for p in progresses)


@pytest.mark.parametrize("source", ["hf", "modelscope"])
def test_full_download_matches_the_hub_and_is_verified(fake_hub, tmp_path, source):
    step = download_step(fake_hub, source, tmp_path)
    progresses: list[pull_steps.Progress] = []
    runner.run_step(step, progresses.append)

    repo = fake_hub.repos[TINY_TARGET_REPO]
    assert_same_tree(repo.folder, tmp_path / "final")
    manifest = staging.verify_folder(tmp_path / "final")
    assert manifest.complete and sorted(manifest.verified) == sorted(repo.files)
    assert all(f.sha256 for f in manifest.files if f.path.endswith(".bin"))
    assert not (tmp_path / "staging").exists()  # moved into place, nothing left behind
    bytes_seen = [p.done for p in progresses if p.done is not None]
    assert bytes_seen[-1] == repo_total(repo) and max(bytes_seen) == repo_total(repo)
    assert step.is_done()


def repo_total(repo) -> int:
    return sum(f.size for f in repo.files.values())


@pytest.mark.parametrize("source", ["hf", "modelscope"])
def test_dropped_connection_mid_file_resumes_with_range(fake_hub, tmp_path, source):
    size = fake_hub.repos[TINY_TARGET_REPO].files[BIG_FILE].size
    fake_hub.drop_after[BIG_FILE] = size // 3
    runner.run_step(download_step(fake_hub, source, tmp_path))

    ranges = fake_hub.ranges_for(BIG_FILE)
    assert ranges[0] is None and len(ranges) == 2
    resumed_from = int(ranges[1].removeprefix("bytes=").split("-")[0])
    assert 0 < resumed_from <= size // 3
    assert fake_hub.bytes_served[BIG_FILE] <= size + size // 3  # the first third was not fetched again
    assert_same_tree(fake_hub.repos[TINY_TARGET_REPO].folder, tmp_path / "final")


@pytest.mark.parametrize("source", ["hf", "modelscope"])
def test_killed_transfer_resumes_in_the_next_run(fake_hub, tmp_path, source):
    size = fake_hub.repos[TINY_TARGET_REPO].files[BIG_FILE].size
    fake_hub.throttle_bps = 400_000
    progresses: list[pull_steps.Progress] = []
    with pytest.raises(pull_steps.Cancelled, match="resume"):
        runner.run_step(download_step(fake_hub, source, tmp_path), progresses.append,
                         cancel_after(progresses, 300_000))
    assert not (tmp_path / "final").exists()
    partial = (staging.partial_path(tmp_path / "staging", BIG_FILE) if source == "hf"
               else tmp_path / "staging" / f"{BIG_FILE}.incomplete")
    kept = partial.stat().st_size
    assert 0 < kept < size

    fake_hub.throttle_bps = None
    fake_hub.requests.clear()
    runner.run_step(download_step(fake_hub, source, tmp_path))
    ranges = fake_hub.ranges_for(BIG_FILE)
    assert ranges == [f"bytes={kept}-"], "the second run must ask only for the missing bytes"
    assert_same_tree(fake_hub.repos[TINY_TARGET_REPO].folder, tmp_path / "final")


@pytest.mark.parametrize("source", ["hf", "modelscope"])
def test_cancel_stops_the_transfer_and_registers_nothing(fake_hub, tiny_catalog, source):
    fake_hub.throttle_bps = 300_000
    plan = pulls.plan_pull("tiny", source=source, endpoint=fake_hub.url, catalog=tiny_catalog)
    progresses: list[pull_steps.Progress] = []
    started = time.monotonic()
    with pytest.raises(pull_steps.Cancelled):
        runner.run_plan(plan, progresses.append, cancel_after(progresses, 200_000))
    assert time.monotonic() - started < 15
    # The server may push a chunk or two into the dead socket before it notices: wait until it has (however
    # long the machine's load makes that), then nothing more may be served.
    wait_until(lambda: fake_hub.bodies_sending == 0)
    served = dict(fake_hub.bytes_served)
    time.sleep(0.6)
    assert fake_hub.bytes_served == served, "the worker kept downloading after the cancel"
    assert ModelRegistry().pairs() == []
    assert not plan.target_dir.exists() and not plan.draft_dir.exists()


@pytest.mark.parametrize("source", ["hf", "modelscope"])
def test_corrupted_file_is_detected_deleted_and_not_registered(fake_hub, tiny_catalog, source):
    fake_hub.corrupt[BIG_FILE] = 1234
    plan = pulls.plan_pull("tiny", source=source, endpoint=fake_hub.url, catalog=tiny_catalog)
    with pytest.raises(pull_steps.AcquireError, match="damaged"):
        runner.run_plan(plan)
    assert ModelRegistry().pairs() == []
    assert not plan.target_dir.exists()
    leftovers = [p for p in paths.models_dir().rglob(f"{BIG_FILE}*") if p.is_file()]
    assert leftovers == [], "a damaged copy must not be kept"

    del fake_hub.corrupt[BIG_FILE]  # the hub is fixed: the same download now completes
    runner.run_step(plan.steps[0])
    assert plan.steps[0].is_done()


def test_unknown_repository_says_so(fake_hub, tmp_path):
    step = pull_steps.DownloadStep("hf", "test/no-such-model", "main", tmp_path / "s", tmp_path / "f",
                                endpoint=fake_hub.url)
    with pytest.raises(pull_steps.AcquireError, match="was not found"):
        runner.run_step(step)


def test_worker_environment_has_telemetry_off_and_the_endpoint(fake_hub, tmp_path):
    hf = download_step(fake_hub, "hf", tmp_path).command()
    assert hf.env["HF_HUB_DISABLE_TELEMETRY"] == "1" and hf.env["HF_ENDPOINT"] == fake_hub.url
    assert hf.env["HF_HUB_OFFLINE"] == "0"  # downloads are the one thing allowed online
    ms = download_step(fake_hub, "modelscope", tmp_path).command()
    assert ms.env["MODELSCOPE_ENDPOINT"] == fake_hub.url
    assert "--endpoint" in ms.argv


def test_free_space_is_checked_before_anything_is_written(fake_hub, tiny_catalog, monkeypatch):
    monkeypatch.setattr(staging, "free_bytes", lambda folder: 10_000)
    with pytest.raises(staging.NotEnoughSpaceError, match="Not enough free disk space"):
        pulls.plan_pull("tiny", source="hf", endpoint=fake_hub.url, catalog=tiny_catalog)
    assert fake_hub.requests == []


def test_worker_refuses_to_start_without_room(fake_hub, tmp_path, monkeypatch):
    """The worker's own check uses the hub's real sizes (the catalog's are estimates)."""
    from huggingface_hub import constants

    from eagle_chat.core.acquisition import hub_clients

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)  # in-process here; the tests run offline
    monkeypatch.setattr(staging, "free_bytes", lambda folder: 1000)
    events = []
    with pytest.raises(staging.NotEnoughSpaceError):
        hub_clients.download_hf(TINY_TARGET_REPO, "main", tmp_path, fake_hub.url, [],
                                    lambda event, **f: events.append(event))
    assert [r.method for r in fake_hub.requests] == ["GET"]  # the listing only, no file transfer
