"""What the schemathesis runs of both servers share (tests/test_web_fuzz.py,
tests/test_online_fuzz.py): their settings, the headers a page sends, the checks, and the
real ids put in the generated requests so that the handlers are reached.

The run is bounded for `make test`: a fixed seed, ``TAVLI_FUZZ_EXAMPLES`` examples per
operation (default :data:`EXAMPLES`), no shrinking; ``TAVLI_FUZZ_EXAMPLES=2000`` runs a
long one (README, Testing). Each answer must come within ``TAVLI_FUZZ_SECONDS``
(default :data:`SECONDS`)."""

from __future__ import annotations

import os
import zlib
from collections.abc import Sequence
from typing import Any

import httpx
import schemathesis
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

EXAMPLES = 6      # examples per operation in `make test`
SECONDS = 8.0     # the longest an answer may take (an AI move or a hint on 2 loaded cores)
SEED = 48         # the number: every run generates the same requests

CHECKS = [schemathesis.checks.not_a_server_error, status_code_conformance,
          content_type_conformance, response_headers_conformance,
          response_schema_conformance]


def examples() -> int:
    return int(os.environ.get("TAVLI_FUZZ_EXAMPLES", EXAMPLES))


def seconds() -> float:
    return float(os.environ.get("TAVLI_FUZZ_SECONDS", SECONDS))


def config() -> schemathesis.Config:
    """Positive and negative requests, deterministic, ``examples()`` per operation, no
    shrinking (a failure is reported as found), the coverage phase off (its hundreds of
    boundary cases per operation are the long run's)."""
    long = examples() > EXAMPLES
    return schemathesis.Config.from_dict({
        "seed": SEED,
        "suppress-health-check": ["all"],
        "generation": {"max-examples": examples(), "deterministic": True, "no-shrink": True,
                       "mode": "all"},
        "phases": {"coverage": {"enabled": long}, "examples": {"enabled": True},
                   "stateful": {"enabled": False}},
    })


def page_headers(base: str) -> dict[str, str]:
    """What a page of the app sends with its requests (the Origin and Fetch checks)."""
    return {"Origin": base, "Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "cors"}


def pick(generated: Any, real: Sequence[str], keep_one_in: int = 6) -> Any:
    """One of the ``real`` values for a generated one — the same for the same generated
    value, so that a run is repeatable —, or the generated value itself one time in
    ``keep_one_in`` (what names nothing must be refused too)."""
    n = zlib.crc32(repr(generated).encode())
    if n % keep_one_in == 0:
        return generated
    return real[n % len(real)]


def call(case: Any, base: str, **kwargs: Any) -> Any:
    """Send ``case`` as a page would and check the answer: no 5xx, a declared status,
    content type and headers, the schema's body, within :func:`seconds`."""
    headers = {**(case.headers or {}), **page_headers(base)}
    response = case.call_and_validate(base_url=base, headers=headers, checks=CHECKS,
                                      timeout=seconds() + 5, **kwargs)
    assert response.elapsed < seconds(), (
        f"{case.method} {case.formatted_path} took {response.elapsed:.1f} s")
    return response


class Page:
    """A page's requests to a server (its headers, its cookies), each answer checked
    against the server's schema: the set-up of a run walks every route's answers."""

    def __init__(self, base: str, schema: Any) -> None:
        self.http = httpx.Client(base_url=base, headers=page_headers(base), timeout=120)
        self.schema = schema
        # kept by hand: the session cookie is Secure, which a browser sends to a loopback
        # address over plain HTTP and httpx does not
        self.cookies: dict[str, str] = {}

    def ask(self, method: str, template: str, status: int = 200, json: Any = None,
            params: dict[str, str] | None = None, headers: dict[str, str] | None = None,
            **path: str) -> Any:
        """``method template`` (its ``path`` parameters given), answered ``status`` as
        the schema says; the answer's JSON (or text)."""
        sent = {**(headers or {}), "Cookie": "; ".join(f"{k}={v}"
                                                         for k, v in self.cookies.items())}
        r = self.http.request(method, template.format(**path), json=json, params=params,
                              headers=sent)
        self.cookies.update(r.cookies)
        self.http.cookies.clear()
        assert r.status_code == status, (method, template, r.status_code, r.text)
        self.schema[template][method].validate_response(r)
        return r.json() if "json" in r.headers.get("content-type", "") else r.text
