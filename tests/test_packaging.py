"""A regular (non-editable) install works: the wheel built from a clean copy of the repository carries the
top-level grammars/ and models/models.toml inside the package (and never a downloaded model), and the
installed copy, run from outside the checkout, understands a request and lists the speech models.

The wheel is built offline with the test venv's own setuptools (``--no-build-isolation --no-index``), and
installed with ``pip install --target`` into a temporary folder that is the only voicegame on PYTHONPATH;
the dependencies (rapidfuzz, ...) come from the test venv. The checks prove the installed copy ran, not the
checkout: its voicegame.__file__, grammar folder and model list all lie in the temporary folder.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import voicegame
from voicegame.speech.models import MANIFEST
from voicegame.understanding.grammar import GRAMMAR_DIR

ROOT = Path(__file__).resolve().parent.parent
# What a working checkout may hold that a clean copy does not.
_JUNK = {".git", ".venv", "venv", "build", "dist", "__pycache__", ".hypothesis", ".pytest_cache", ".mypy_cache",
         ".ruff_cache"}
# A downloaded model and a fetch's leftovers in the copy's models/: none of them may reach the wheel.
_FAKE_MODEL = "vosk-model-small-en-us-0.15"


def _run(args: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, timeout=120, **kwargs)


def _clean_copy(dest: Path) -> None:
    def ignore(folder: str, names: list[str]) -> set[str]:
        out = {n for n in names if n in _JUNK or n.endswith((".egg-info", ".pyc"))}
        if Path(folder).resolve() == (ROOT / "models").resolve():
            out |= {n for n in names if (Path(folder) / n).is_dir()}  # this checkout's own downloaded models
        return out

    shutil.copytree(ROOT, dest, ignore=ignore, symlinks=True)
    model = dest / "models" / _FAKE_MODEL
    (model / "am").mkdir(parents=True)
    (model / "conf").mkdir()
    (model / "am" / "final.mdl").write_bytes(b"\0" * 16)
    (model / "conf" / "model.conf").write_text("--sample-frequency=16000\n")
    (dest / "models" / ".vosk-model-small-nl-0.22.zip.part").write_bytes(b"PK")
    (dest / "models" / ".vosk-model-small-nl-0.22.x1y2z3").mkdir()


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    import setuptools

    major, minor = (int(x) for x in setuptools.__version__.split(".")[:2])
    assert (major, minor) >= (70, 1), (
        f"setuptools {setuptools.__version__} cannot build wheels by itself: "
        "pip install -e '.[test]' installs a newer one")
    base = tmp_path_factory.mktemp("packaging")
    src, dist = base / "src", base / "dist"
    _clean_copy(src)
    result = _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "--no-index",
                   "-w", str(dist), str(src)], cwd=base)
    assert result.returncode == 0, result.stdout + result.stderr
    (built,) = dist.glob("voicegame-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("site")
    result = _run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index", "--target",
                   str(target), str(wheel)], cwd=target)
    assert result.returncode == 0, result.stdout + result.stderr
    return target


def test_wheel_carries_the_grammars_and_the_model_list_but_no_model(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    grammars = sorted(p.name for p in (ROOT / "grammars").glob("*.toml"))
    assert "en.toml" in grammars and "nl.toml" in grammars
    for name in grammars:
        assert f"voicegame/grammars/{name}" in names
    assert "voicegame/models/models.toml" in names
    assert sorted(n for n in names if n.startswith("voicegame/models/")) == ["voicegame/models/models.toml"]
    assert not [n for n in names if _FAKE_MODEL in n or "final.mdl" in n or "/." in n or "zip.part" in n]
    # Nothing lands at the top of site-packages but the package and its metadata (no stray models/).
    assert {n.split("/")[0] for n in names} == {"voicegame", wheel.name.split("-py")[0] + ".dist-info"}
    assert {p.name for p in (ROOT / "voicegame" / "decks" / "data").glob("*.toml")} == {
        n.rsplit("/", 1)[1] for n in names if n.startswith("voicegame/decks/data/")}


def test_wheel_holds_every_module_of_the_checkout(wheel):
    """pyproject.toml lists the packages by hand (setuptools cannot mix found and mapped ones): a new
    subpackage left out of that list fails here."""
    names = set(zipfile.ZipFile(wheel).namelist())
    modules = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "voicegame").rglob("*.py"))
    assert modules and [m for m in modules if m not in names] == []


def test_checkout_finds_its_own_folders():
    """In a source tree or an editable install the top-level folders are used, so edits there count."""
    assert (GRAMMAR_DIR / "en.toml").is_file() and MANIFEST.is_file()
    if Path(voicegame.__file__).resolve().is_relative_to(ROOT):
        assert GRAMMAR_DIR == ROOT / "grammars"
        assert MANIFEST == ROOT / "models" / "models.toml"


def test_installed_wheel_plays_outside_the_checkout(installed, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(PYTHONPATH=str(installed), PYTHONDONTWRITEBYTECODE="1",
               VOICEGAME_DATA_DIR=str(tmp_path / "data"), VOICEGAME_CONFIG=str(tmp_path / "no-config.toml"))

    def run(*args: str) -> subprocess.CompletedProcess:
        return _run([sys.executable, *args], cwd=elsewhere, env=env)

    where = run("-c", "import voicegame\n"
                      "from voicegame.understanding.grammar import GRAMMAR_DIR\n"
                      "from voicegame.speech.models import MANIFEST\n"
                      "print(voicegame.__file__, GRAMMAR_DIR, MANIFEST, sep='\\n')")
    assert where.returncode == 0, where.stderr
    package, grammars, manifest = (Path(line) for line in where.stdout.splitlines())
    for path in (package, grammars, manifest):
        assert path.resolve().is_relative_to(installed.resolve()), where.stdout
    assert grammars == package.parent / "grammars" and manifest == package.parent / "models" / "models.toml"

    understood = run("-m", "voicegame", "understand", "--players", "Alice,Ben", "--asker", "Alice",
                     "Ben, is Mrs. Bun at home?")
    assert understood.returncode == 0, understood.stdout + understood.stderr
    assert "ask Ben for bun:mrs" in understood.stdout

    listed = run("-m", "voicegame", "models", "list")
    assert listed.returncode == 0, listed.stdout + listed.stderr
    assert "en: vosk-model-small-en-us-0.15" in listed.stdout and "nl: vosk-model-small-nl-0.22" in listed.stdout

    # The console script pip wrote (what pipx puts on PATH) runs the installed copy too.
    script = installed / "bin" / "voicegame"
    if script.is_file():
        scripted = _run([str(script), "models", "list"], cwd=elsewhere, env=env)
        assert scripted.returncode == 0 and "vosk-model-small-en-us-0.15" in scripted.stdout, scripted.stderr
