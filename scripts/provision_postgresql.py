"""Make sure the storage tests have PostgreSQL's server (``make test`` runs this first).

The tests start a throw-away cluster of their own (``tavli/store/pgcluster.py``:
initdb into a temporary folder, a Unix socket only), so all they need is the server's
programs: Debian's ``/usr/lib/postgresql/VERSION/bin`` (or ``$TAVLI_PG_BIN``, or
``initdb`` on the PATH). When they are missing, as root where ``apt-get`` exists, it
installs Debian's ``postgresql`` package (which also creates the ``postgres`` user the
cluster runs as when the tests run as root). When neither works it prints one line
saying what to install and exits with status 1. Nothing is started here.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from debian_package import provision  # noqa: E402

from tavli.store.pgcluster import ClusterError, find_bindir  # noqa: E402


def found() -> bool:
    try:
        return os.access(find_bindir() / "initdb", os.X_OK)
    except ClusterError:
        return False


def main() -> int:
    return provision("postgresql", found, "the storage tests need PostgreSQL's server",
                     "or set TAVLI_PG_BIN to the folder of its initdb and pg_ctl")


if __name__ == "__main__":
    sys.exit(main())
