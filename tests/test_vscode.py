"""The VS Code extension (editors/vscode): its TextMate grammar, checked with
vscode-tmgrammar-test on the annotated samples (every token, every dialect),
and the .vsix that @vscode/vsce packages (a smoke test of what it holds)."""

from __future__ import annotations

import json
import os
import subprocess
import zipfile
from pathlib import Path

import pytest

from tools import require

EXTENSION = Path(__file__).resolve().parent.parent / "editors" / "vscode"


def npx(*args: str, cwd: Path = EXTENSION) -> subprocess.CompletedProcess[str]:
    command = require("npx", "the VS Code extension's tests")
    if not (EXTENSION / "node_modules").is_dir():
        message = "editors/vscode/node_modules is missing (scripts/setup-tests.sh runs npm ci)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return subprocess.run([command, "--no-install", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=300)


def grammar_test(*files: str) -> subprocess.CompletedProcess[str]:
    return npx("vscode-tmgrammar-test", "-g", "syntaxes/lcn.tmLanguage.json", *files)


def test_the_grammar_passes_its_annotated_samples() -> None:
    samples = sorted(p.name for p in (EXTENSION / "tests").glob("*.lcn"))
    assert {"v1.lcn", "x-discard.lcn", "lower.lcn", "v1-draft.lcn"} <= set(samples)
    ran = grammar_test(*(f"tests/{name}" for name in samples))
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert ran.stdout.count("successfuly") == len(samples)


def test_the_grammar_test_fails_on_a_wrong_scope(tmp_path: Path) -> None:
    wrong = (EXTENSION / "tests" / "x-discard.lcn").read_text().replace(
        "keyword.operator.discard.lcn", "constant.numeric.rank.lcn")
    (tmp_path / "wrong.lcn").write_text(wrong)
    ran = grammar_test(str(tmp_path / "wrong.lcn"))
    assert ran.returncode != 0 and "missing required scopes" in ran.stdout


def test_every_scope_of_the_grammar_is_tested() -> None:
    grammar = (EXTENSION / "syntaxes" / "lcn.tmLanguage.json").read_text()
    samples = "".join(p.read_text() for p in (EXTENSION / "tests").glob("*.lcn"))
    names = {word for word in grammar.replace('"', " ").split() if word.endswith(".lcn")
             and "." in word[:-4]}
    assert len(names) > 10
    assert [n for n in sorted(names) if n not in samples] == []


@pytest.mark.slow
def test_the_vsix_packages_and_holds_the_extension(tmp_path: Path) -> None:
    vsix = tmp_path / "lcnotation.vsix"
    ran = npx("vsce", "package", "--skip-license", "--out", str(vsix))
    assert ran.returncode == 0, ran.stdout + ran.stderr
    with zipfile.ZipFile(vsix) as archive:
        names = set(archive.namelist())
        manifest = json.loads(archive.read("extension/package.json"))
    names |= {n.lower() for n in names}
    for part in ("extension.js", "language-configuration.json", "readme.md",
                 "syntaxes/lcn.tmLanguage.json",
                 "node_modules/vscode-languageclient/package.json"):
        assert f"extension/{part}" in names, part
    assert not any(n.startswith(("extension/tests/", "extension/node_modules/@vscode/vsce/",
                                 "extension/node_modules/vscode-tmgrammar-test/"))
                   for n in names)
    assert manifest["contributes"]["languages"][0]["extensions"] == [".lcn"]
    assert manifest["main"] == "./extension.js"
