"""The tests' fixtures: a browser, axe-core, a beginner's position, a throw-away PostgreSQL (helpers: ``support``)."""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator
from typing import Any

import pytest

from spots.games.spots.state import State
from support.processes import CHROMIUM, CHROMIUM_ARGS, PatientBrowser
from support.spots import start

# The servers here start by the hundred: none works out the daily pars ahead (a test that wants it says so).
os.environ["SPOTS_PARS_AHEAD"] = "0"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium driven by Playwright, one per test module (the browser tests)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield PatientBrowser(b)
        b.close()


@pytest.fixture(scope="module")
def axe() -> Any:
    """axe-core's accessibility checker, for the browser tests that read a page as a screen reader would."""
    module = pytest.importorskip("axe_playwright_python.sync_playwright", reason="pip install axe-playwright-python")
    return module.Axe()


@pytest.fixture
def beginner() -> State:
    return start()


@pytest.fixture(scope="session")
def postgres() -> Iterator[Any]:
    """One real PostgreSQL server for the whole session (Debian's package; skipped without it, except in CI)."""
    from support.pgcluster import Cluster, binaries

    found = binaries()
    if found is None or importlib.util.find_spec("psycopg") is None:
        why = ("PostgreSQL is not installed (apt-get install postgresql)" if found is None
               else "the psycopg driver is not installed (pip install 'spots[postgres]')")
        if os.environ.get("CI"):
            pytest.fail(f"{why}: CI must run the PostgreSQL tests")
        pytest.skip(why)
    cluster = Cluster(found).start()
    yield cluster
    cluster.stop()


@pytest.fixture
def pg_url(postgres: Any) -> str:
    """A fresh, empty PostgreSQL database for one test."""
    return str(postgres.database())


@pytest.fixture(params=["sqlite", "postgres"])
def db(request: pytest.FixtureRequest, tmp_path: Any) -> str:
    """The server's database on each store: a SQLite file, then a fresh PostgreSQL database (a module with a ``db``
    of its own uses that)."""
    if request.param == "sqlite":
        return str(tmp_path / "spots.db")
    return str(request.getfixturevalue("pg_url"))
