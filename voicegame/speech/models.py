"""The speech-model manifest (models/models.toml), safe downloads, and the ``voicegame models`` command.

``fetch`` downloads to a dot-file next to the destination while hashing, checks size and SHA-256,
unpacks into a dot-folder beside it, and only then renames the model folder into place (one
atomic rename on the same disk). Whatever fails, the dot-file and dot-folder are removed, so a
model folder is either complete or absent. Progress lines are only ever appended, never redrawn,
for screen readers and braille displays.
"""

from __future__ import annotations

import argparse
import errno
import hashlib
import http.client
import json
import os
import shutil
import socket
import sys
import tempfile
import tomllib
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from voicegame import shipped
from voicegame.speech.base import SpeechError
from voicegame.speech.sentences import language_name
from voicegame.speech.vosk_backend import (
    InstalledModel, package_model, installed_models, looks_like_model,
    user_models_dir,
)

__all__ = ["MANIFEST", "ModelEntry", "ModelStatus", "fetch", "list_models", "load_manifest", "models_main"]

# The model list (a wheel carries models/models.toml alone); fetched models go to user_models_dir().
MANIFEST = shipped("models") / "models.toml"
_CHUNK = 1 << 16


@dataclass(frozen=True)
class ModelEntry:
    name: str
    language: str
    url: str = ""
    size: int = 0  # bytes of the archive
    sha256: str = ""  # empty: none published; the exact size is checked instead
    pip: str = ""  # set for models that come as a PyPI package instead of a download


@dataclass(frozen=True)
class ModelStatus:
    entry: ModelEntry | None  # None: installed but not in the manifest
    installed: InstalledModel | None


def _mb(n: int) -> str:
    return f"{n / 1e6:.0f} MB" if n >= 1e6 else f"{n / 1e3:.0f} kB"


def load_manifest(path: Path = MANIFEST) -> list[ModelEntry]:
    """Read and check the manifest; a SpeechError says which entry is wrong and how."""
    try:
        data = tomllib.loads(Path(path).read_text("utf-8"))
    except OSError as exc:
        raise SpeechError(f"The model list {path} cannot be read: {exc.strerror}.") from None
    except tomllib.TOMLDecodeError as exc:
        raise SpeechError(f"The model list {path} is not valid TOML: {exc}.") from None
    entries = []
    for i, raw in enumerate(data.get("model", []), 1):
        where = f"{path}, model {i}"
        unknown = set(raw) - {"name", "language", "url", "size", "sha256", "pip"}
        if unknown:
            raise SpeechError(f"{where}: unknown key {', '.join(sorted(unknown))}.")
        if not raw.get("name") or not raw.get("language"):
            raise SpeechError(f"{where}: every model needs a name and a language.")
        entry = ModelEntry(**raw)
        if not entry.pip:
            if not entry.url.startswith(("https://", "http://")):
                raise SpeechError(f"{where} ({entry.name}): needs a url, or pip for a PyPI package.")
            if entry.sha256 and (len(entry.sha256) != 64 or set(entry.sha256) - set("0123456789abcdef")):
                raise SpeechError(f"{where} ({entry.name}): sha256 must be 64 lower-case hex digits.")
            if not entry.sha256 and entry.size <= 0:
                raise SpeechError(f"{where} ({entry.name}): needs a sha256 or an exact size to check the download.")
        entries.append(entry)
    if not entries:
        raise SpeechError(f"The model list {path} has no [[model]] entries.")
    return entries


def _entry(name: str, entries: list[ModelEntry]) -> ModelEntry:
    for e in entries:
        if name in (e.name, e.language):
            return e
    known = ", ".join(sorted({e.language for e in entries}))
    raise SpeechError(f"There is no speech model called {name}. Models can be fetched for: {known}.")


def _disk_error(exc: OSError, folder: Path) -> SpeechError:
    if exc.errno == errno.ENOSPC:
        return SpeechError(f"There is not enough free disk space in {folder} for the speech model. "
                           "Free some space and try again.")
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return SpeechError(f"I am not allowed to write to {folder}. Choose another folder with --dir.")
    return SpeechError(f"I could not write the speech model to {folder}: {exc.strerror or exc}.")


def _why_unreachable(exc: OSError) -> str:
    """Words for a failed connection, rather than the system's ("[Errno -2] Name or service not known")."""
    reason = getattr(exc, "reason", exc)
    if isinstance(reason, socket.gaierror):  # the server's name could not be looked up
        return "this computer seems to be offline"
    if isinstance(reason, TimeoutError):
        return "it did not answer in time"
    if isinstance(reason, ConnectionRefusedError):
        return "it refused the connection"
    return "the connection failed"


def _download(entry: ModelEntry, part: Path, progress: Callable[[str], None], timeout: float) -> tuple[str, int]:
    """Stream the archive into ``part``; returns (sha256 hex, bytes). Network trouble -> SpeechError."""
    host = urllib.parse.urlsplit(entry.url).hostname
    request = urllib.request.Request(entry.url, headers={"User-Agent": "voicegame"})
    try:
        response = urllib.request.urlopen(request, timeout=timeout)
    except urllib.error.HTTPError as exc:
        raise SpeechError(f"The model server {host} answered {exc.code} {exc.reason} for {entry.name}. "
                          "Try again later.") from None
    except (urllib.error.URLError, OSError) as exc:
        raise SpeechError(f"I could not reach {host} to download the speech model: {_why_unreachable(exc)}. "
                          "Check the internet connection and try again.") from None
    digest = hashlib.sha256()
    got = 0
    with response, open(part, "wb") as out:
        announced = int(response.headers.get("Content-Length") or 0)
        total = announced or entry.size
        progress(f"Downloading {entry.name} ({_mb(total)}) from {host}." if total else f"Downloading {entry.name}.")
        mark = 10
        while True:
            try:
                chunk = response.read(_CHUNK)
            except (OSError, http.client.HTTPException):
                chunk = None
            if not chunk:
                break
            out.write(chunk)
            digest.update(chunk)
            got += len(chunk)
            while total and mark <= 100 and got * 100 >= mark * total:
                progress(f"{mark}% ({_mb(got)} of {_mb(total)})")
                mark += 10
        if chunk is None or (announced and got != announced):
            raise SpeechError(f"The download of {entry.name} was cut off after {_mb(got)}"
                              f"{f' of {_mb(announced)}' if announced else ''}. Try again.")
    return digest.hexdigest(), got


def _verify(entry: ModelEntry, digest: str, size: int, progress: Callable[[str], None]) -> None:
    if entry.size and size != entry.size:
        raise SpeechError(f"The download of {entry.name} has the wrong size ({size} bytes, expected {entry.size}), "
                          "so it was removed. Try again.")
    if entry.sha256:
        if digest != entry.sha256:
            raise SpeechError(f"The download of {entry.name} does not match its checksum, so it was removed. "
                              "It may have been damaged on the way; try again.")
        progress("Checksum matches.")
    else:
        progress(f"Warning: no checksum is known for {entry.name}, so only its size was checked. "
                 f"Its SHA-256 is {digest}.")


def _unpack(archive: Path, into: Path, entry: ModelEntry) -> Path:
    """Extract and return the model folder inside (archives hold one top folder, or the model itself)."""
    try:
        with zipfile.ZipFile(archive) as zf:
            zf.extractall(into)  # extractall drops ".." and absolute parts of member names
    except zipfile.BadZipFile:
        raise SpeechError(f"The download of {entry.name} is not a valid zip archive, so it was removed.") from None
    for candidate in [into, *sorted(p for p in into.iterdir() if p.is_dir())]:
        if looks_like_model(candidate):
            return candidate
    raise SpeechError(f"The archive of {entry.name} holds no complete Vosk model, so it was removed.")


def fetch(name: str, dest_dir: Path | None = None, progress: Callable[[str], None] = print, *,
          manifest: Path = MANIFEST, timeout: float = 30.0) -> Path:
    """Download, check and install model ``name`` (its name or language code); returns its folder."""
    entry = _entry(name, load_manifest(manifest))
    if entry.pip:
        installed = package_model(entry.pip.replace("-", "_"))
        if installed is None:
            raise SpeechError(f"The {language_name('en', entry.language)} model comes as a "
                              f"Python package. Install it with: pip install {entry.pip}")
        progress(f"{entry.name} is already installed, from the Python package {entry.pip}.")
        return installed
    dest = Path(dest_dir) if dest_dir is not None else user_models_dir()
    target = dest / entry.name
    if looks_like_model(target):
        progress(f"{entry.name} is already installed in {target}.")
        return target
    if target.exists():
        raise SpeechError(f"{target} is in the way but is not a complete model. Remove it and try again.")
    part = dest / f".{entry.name}.zip.part"
    unpacked: Path | None = None
    try:
        dest.mkdir(parents=True, exist_ok=True)
        digest, size = _download(entry, part, progress, timeout)
        _verify(entry, digest, size, progress)
        progress(f"Unpacking {entry.name}.")
        unpacked = Path(tempfile.mkdtemp(prefix=f".{entry.name}.", dir=dest))
        os.rename(_unpack(part, unpacked, entry), target)
    except OSError as exc:
        raise _disk_error(exc, dest) from None
    finally:
        for leftover in (part, unpacked):
            if leftover is not None and leftover.is_dir():
                shutil.rmtree(leftover, ignore_errors=True)
            elif leftover is not None and leftover.exists():
                leftover.unlink()
    progress(f"Installed {entry.name} in {target}.")
    return target


def list_models(manifest: Path = MANIFEST) -> list[ModelStatus]:
    """Every manifest model (installed or not), then installed models the manifest does not name."""
    entries = load_manifest(manifest)
    installed = installed_models()
    out = []
    for e in entries:
        match = next((m for m in installed if m.name == e.name), None)
        out.append(ModelStatus(e, match))
    names = {e.name for e in entries}
    out += [ModelStatus(None, m) for m in installed if m.name not in names]
    return out


def _status_json(s: ModelStatus) -> dict:
    e, m = s.entry, s.installed
    return {
        "name": e.name if e else m.name,
        "language": e.language if e else m.language,
        "installed": str(m.path) if m else None,
        "size": e.size if e else None,
        "pip": (e.pip or None) if e else None,
    }


def models_main(argv: list[str] | None = None) -> int:
    """``voicegame models list [--json]`` and ``voicegame models fetch LANG [--dir DIR]``."""
    parser = argparse.ArgumentParser(prog="voicegame models", description="List or download speech models.")
    parser.add_argument("--manifest", type=Path, default=MANIFEST, help=argparse.SUPPRESS)
    sub = parser.add_subparsers(dest="action", required=True)
    p = sub.add_parser("list", help="show installed and downloadable models")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("fetch", help="download and install a model")
    p.add_argument("language", help="a language code (en, nl) or a model name")
    p.add_argument("--dir", type=Path, help=f"where to install (default {user_models_dir()})")
    args = parser.parse_args(argv)
    try:
        if args.action == "fetch":
            fetch(args.language, args.dir, lambda line: print(line, flush=True), manifest=args.manifest)
            return 0
        statuses = list_models(args.manifest)
    except SpeechError as exc:
        print(exc, file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # fetch removes its part-downloaded file and folder on the way out
        print("Download stopped; nothing was installed.", file=sys.stderr)
        return 130
    if args.json:
        print(json.dumps([_status_json(s) for s in statuses], ensure_ascii=False, indent=1))
        return 0
    for s in statuses:
        row = _status_json(s)
        if row["installed"]:
            print(f"{row['language']}: {row['name']}, installed in {row['installed']}")
        elif row["pip"]:
            print(f"{row['language']}: {row['name']}, not installed; get it with: pip install {row['pip']}")
        else:
            print(f"{row['language']}: {row['name']}, {_mb(row['size'])}, not installed; "
                  f"get it with: voicegame models fetch {row['language']}")
    return 0
