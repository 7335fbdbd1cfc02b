"""A downloaded file is checked against the size and hash the hub listed: SHA-256 for LFS files, the git
blob hash for the others."""

import hashlib

import pytest

from eagle_chat.core.acquisition.staging import RemoteFile, StagingError, check_file


def git_blob_sha1(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


@pytest.mark.parametrize("kind", ["SHA-256", "git hash"])
def test_a_file_must_match_the_listed_hash(tmp_path, kind):
    good, bad = b"weights " * 100, b"weighTs " * 100
    path = tmp_path / "openvino_model.bin"
    path.write_bytes(good)
    listed = (
        RemoteFile("openvino_model.bin", len(good), sha256=hashlib.sha256(good).hexdigest()) if kind == "SHA-256"
        else RemoteFile("openvino_model.bin", len(good), git_sha1=git_blob_sha1(good))
    )
    check_file(path, listed, "OpenVINO/tiny")  # matches: no error
    path.write_bytes(bad)  # same size, one byte changed
    with pytest.raises(StagingError, match=f"openvino_model.bin from OpenVINO/tiny is damaged: its {kind} is"):
        check_file(path, listed, "OpenVINO/tiny")


def test_a_short_or_missing_file_is_reported_before_any_hash(tmp_path):
    path = tmp_path / "config.json"
    listed = RemoteFile("config.json", 10)
    with pytest.raises(StagingError, match="is missing"):
        check_file(path, listed, "r")
    path.write_bytes(b"{}")
    with pytest.raises(StagingError, match="has 2 bytes but the hub lists 10"):
        check_file(path, listed, "r")
