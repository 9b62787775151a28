"""Make sure the storage tests have PostgreSQL's server (``make test`` runs this first).

The tests start a throw-away cluster of their own (``tavli/online/pgcluster.py``:
initdb into a temporary folder, a Unix socket only), so all they need is the server's
programs: Debian's ``/usr/lib/postgresql/VERSION/bin`` (or ``$TAVLI_PG_BIN``, or
``initdb`` on the PATH). When they are missing, as root where ``apt-get`` exists, it
installs Debian's ``postgresql`` package (which also creates the ``postgres`` user the
cluster runs as when the tests run as root). When neither works it prints one line
saying what to install and exits with status 1. Nothing is started here.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tavli.online.pgcluster import ClusterError, find_bindir  # noqa: E402


def found() -> bool:
    try:
        return os.access(find_bindir() / "initdb", os.X_OK)
    except ClusterError:
        return False


def main() -> int:
    if found():
        return 0
    apt = shutil.which("apt-get")
    if apt and os.geteuid() == 0:
        print("the storage tests need PostgreSQL: installing Debian's with apt-get")
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        for cmd in ([apt, "update", "-qq"], [apt, "install", "-y", "-qq", "postgresql"]):
            subprocess.run(cmd, env=env, capture_output=True)
        if found():
            return 0
        print("make test: apt-get could not install postgresql: run `apt-get install "
              "postgresql` to see why, then make test again", file=sys.stderr)
        return 1
    print("make test: the storage tests need PostgreSQL's server: run `sudo apt-get install "
          "postgresql` (or set TAVLI_PG_BIN to the folder of its initdb and pg_ctl)",
          file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
