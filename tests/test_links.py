"""The documentation address is one fact (issue 24, defect 8): ``[project.urls]``
of pyproject.toml, read from the package metadata by lcnotation.core.links,
with the installed specification pages as the fallback; ``lcn explain``, the
JSON and SARIF outputs and the language server all link through it."""

from __future__ import annotations

import email.message
import json
import sys
from pathlib import Path
from urllib.parse import urlparse
from urllib.request import url2pathname

import pytest

from lcnotation.core import links
from lcnotation.lsp.describe import code_href, describe_code
from lcnotation.tools.explain import explain
from lcnotation.tools.output import diagnostic_json, documentation_url, to_sarif
from lcnotation.core.diagnostics import Diagnostic
from lcnotation.core.lint import FileReport
from lcnotation.core.findings import Finding
from lcnotation.core.span import Span

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]


def _declared() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["urls"]


def test_the_addresses_are_declared_once_and_spelt_nowhere_else() -> None:
    urls = _declared()
    assert set(urls) >= {"Documentation", "Source"}
    spelt = {u.rstrip("/") for u in urls.values()} | {"github.com/lcnotation"}
    found = []
    for folder in ("lcnotation", "editors", "tests", "spec"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.suffix in (".py", ".md", ".js", ".json", ".yaml",
                                                  ".toml", ".txt", ".html") \
                    and path.name != "test_links.py" and "node_modules" not in path.parts:
                text = path.read_text("utf-8", errors="replace")
                found += [f"{path.relative_to(ROOT)}: {u}" for u in spelt if u in text]
    hooks = (ROOT / ".pre-commit-hooks.yaml").read_text("utf-8")
    found += [f".pre-commit-hooks.yaml: {u}" for u in spelt if u in hooks]
    assert found == []


def _finding() -> Finding:
    return Finding(Diagnostic("S102", "case", Span(1, 1, 1, 5, 0, 4), path="a.lcn"))


def _every_link() -> dict:
    sarif = json.loads(to_sarif([FileReport("a.lcn", [_finding()])], "0"))
    driver = sarif["runs"][0]["tool"]["driver"]
    rule = next(r for r in driver["rules"] if r["id"] == "S102")
    return {"explain": explain("S102").rstrip("\n").rsplit("More: ", 1)[1],
            "json": diagnostic_json(_finding().diagnostic)["url"],
            "sarif": rule["helpUri"], "server": code_href("S102"),
            "hover": describe_code("S102").rsplit("(", 1)[1].rstrip(")"),
            "informationUri": driver.get("informationUri")}


@pytest.fixture
def metadata(monkeypatch: pytest.MonkeyPatch):
    """``metadata(urls)``: the package's metadata declares ``urls``."""
    from importlib import metadata as importlib_metadata

    def declare(urls: dict) -> None:
        message = email.message.Message()
        for label, url in urls.items():
            message["Project-URL"] = f"{label}, {url}"
        monkeypatch.setattr(importlib_metadata, "metadata", lambda name: message)
        links.project_urls.cache_clear()

    yield declare
    links.project_urls.cache_clear()


def test_every_link_is_the_documentation_site_of_the_metadata(metadata) -> None:
    metadata(_declared())
    site = _declared()["Documentation"].rstrip("/") + "/"
    found = _every_link()
    assert found.pop("informationUri") == site
    assert set(found.values()) == {f"{site}spec/diagnostics.html#s102"}, found


def test_without_an_address_the_links_are_the_installed_spec_pages(metadata) -> None:
    metadata({"Source": _declared()["Source"]})
    found = _every_link()
    assert found.pop("informationUri") == _declared()["Source"]
    (url,) = set(found.values())
    assert url.startswith("file://") and url.endswith("/lcnotation/spec/diagnostics.md#s102")
    page = Path(url2pathname(urlparse(url).path))
    assert "### S102" in page.read_text("utf-8")
    metadata({})
    assert "informationUri" not in json.loads(to_sarif([], "0"))["runs"][0]["tool"]["driver"]
    assert documentation_url("R101").endswith("/lcnotation/spec/rules.md#r101")
