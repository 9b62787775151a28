"""Fixtures shared by the browser app's tests."""

from __future__ import annotations

import warnings

import pytest


@pytest.fixture
def db(tmp_path):
    """A fresh SQLite file for the app."""
    return tmp_path / "games.sqlite3"


@pytest.fixture
def client(db):
    """A test client of the app on ``db``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    from tavli.web.app import create_app

    return TestClient(create_app(db))
