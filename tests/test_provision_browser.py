"""``scripts/provision_browser.py``, which ``make test`` runs before the suite: the order
in which it looks for a chromium (Debian's, Playwright's, apt-get as root, else one line
saying what to install), with fake commands (no real apt-get or download)."""

from __future__ import annotations

import importlib.util
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
SCRIPT = ROOT / "scripts" / "provision_browser.py"

_spec = importlib.util.spec_from_file_location("provision_browser", SCRIPT)
pb = importlib.util.module_from_spec(_spec)
sys.modules["provision_browser"] = pb  # for its dataclass
_spec.loader.exec_module(pb)


class FakeRunner:
    """Answers commands from a table (command name -> result, or a list of results in
    turn), records the calls; a successful ``apt-get install`` creates the chromium."""

    def __init__(self, chromium: Path, **results):
        self.chromium = chromium
        self.results = results
        self.calls: list[tuple[list[str], float | None, dict | None]] = []

    def __call__(self, cmd, timeout, env):
        self.calls.append((list(cmd), timeout, env))
        key = cmd[0] if cmd[0] != "apt-get" else "apt-" + cmd[1]
        ok = self.results.get(key, False)
        if isinstance(ok, list):
            ok = ok.pop(0)
        if key == "apt-install" and ok:
            _make_executable(self.chromium)
        return ok

    def names(self):
        return [c[0][0] if c[0][0] != "apt-get" else "apt-" + c[0][1] for c in self.calls]


def _make_executable(path: Path, text: str = "#!/bin/sh\nexit 0\n") -> None:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def setup(tmp_path, *, root=True, apt=True, **results):
    chromium = tmp_path / "chromium"
    runner = FakeRunner(chromium, **results)
    said: list[str] = []
    s = pb.Setup(chromium=str(chromium), playwright_check=["pw-check"],
                 playwright_install=["pw-install"], playwright_timeout=7.0,
                 apt_get="apt-get" if apt else None, is_root=root, run=runner,
                 say=said.append)
    return s, runner, said


def test_debian_chromium_present_is_used_and_nothing_runs(tmp_path):
    s, runner, said = setup(tmp_path)
    _make_executable(Path(s.chromium))
    assert pb.provision(s) == (s.chromium, "")
    assert runner.calls == [] and said == []


def test_playwright_chromium_already_installed_is_used(tmp_path):
    s, runner, _ = setup(tmp_path, **{"pw-check": True})
    assert pb.provision(s) == ("playwright", "")
    assert runner.names() == ["pw-check"]


def test_playwright_chromium_installed_when_it_can_be(tmp_path):
    s, runner, _ = setup(tmp_path, **{"pw-check": [False, True], "pw-install": True})
    assert pb.provision(s) == ("playwright", "")
    assert runner.names() == ["pw-check", "pw-install", "pw-check"]
    assert runner.calls[1][1] == 7.0  # the install runs under its time limit


def test_no_download_then_apt_get_as_root(tmp_path):
    s, runner, said = setup(tmp_path, **{"apt-update": True, "apt-install": True})
    assert pb.provision(s) == (s.chromium, "")
    assert runner.names() == ["pw-check", "pw-install", "apt-update", "apt-install"]
    update, install = runner.calls[2], runner.calls[3]
    assert update[0] == ["apt-get", "update", "-qq"]
    assert install[0] == ["apt-get", "install", "-y", "-qq", "chromium"]
    assert update[2] == install[2] == {"DEBIAN_FRONTEND": "noninteractive"}
    assert any("apt-get" in line for line in said)


def test_apt_get_failing_is_one_line(tmp_path):
    s, runner, _ = setup(tmp_path, **{"apt-update": True, "apt-install": False})
    browser, error = pb.provision(s)
    assert browser is None and "\n" not in error
    assert "apt-get install chromium" in error and not Path(s.chromium).exists()


def test_not_root_on_debian_says_what_to_run(tmp_path):
    s, runner, _ = setup(tmp_path, root=False)
    browser, error = pb.provision(s)
    assert browser is None and "\n" not in error
    assert "sudo apt-get install chromium" in error
    assert "apt-update" not in runner.names() and "apt-install" not in runner.names()


def test_no_apt_get_names_both_browsers(tmp_path):
    s, runner, _ = setup(tmp_path, apt=False)
    browser, error = pb.provision(s)
    assert browser is None and "\n" not in error
    assert s.chromium in error and "playwright install --with-deps chromium" in error
    assert runner.names() == ["pw-check", "pw-install"]


def test_the_script_with_fake_commands(tmp_path):
    """The script as ``make test`` runs it: a Playwright install that hangs is cut off at
    its time limit, then apt-get (a fake that logs its calls) installs chromium when root;
    otherwise one line on stderr and status 1."""
    chromium = tmp_path / "bin" / "chromium"
    chromium.parent.mkdir()
    log = tmp_path / "apt.log"
    apt = tmp_path / "apt-get"
    _make_executable(apt, f"""#!/bin/sh
echo "$DEBIAN_FRONTEND $*" >> {log}
if [ "$1" = install ]; then printf '#!/bin/sh\\n' > {chromium}; chmod +x {chromium}; fi
""")
    hang = tmp_path / "hang"
    _make_executable(hang, "#!/bin/sh\nsleep 30\n")
    env = {**os.environ, "TAVLI_CHROMIUM": str(chromium), "TAVLI_PLAYWRIGHT_CHECK": "false",
           "TAVLI_PLAYWRIGHT_INSTALL": str(hang), "TAVLI_PLAYWRIGHT_TIMEOUT": "1",
           "TAVLI_APT_GET": str(apt)}
    done = subprocess.run([sys.executable, str(SCRIPT)], env=env, capture_output=True,
                          text=True, timeout=25)
    if os.geteuid() == 0:
        assert done.returncode == 0, done.stderr
        assert log.read_text().splitlines() == [
            "noninteractive update -qq", "noninteractive install -y -qq chromium"]
        assert os.access(chromium, os.X_OK)
    else:
        assert done.returncode == 1 and not log.exists()
        assert done.stderr.count("\n") == 1 and "sudo apt-get install chromium" in done.stderr


@pytest.mark.parametrize("name", ["Makefile", ".ci/run"])
def test_make_test_provisions_the_browser_and_ci_calls_make_test(name):
    text = (ROOT / name).read_text()
    if name == "Makefile":
        recipe = re.search(r"^test:.*\n((?:\t.*\n)+)", text, re.M).group(1).splitlines()
        assert "scripts/provision_browser.py" in recipe[0]
        assert any("pytest" in line for line in recipe[1:])
    else:
        commands = [line for line in text.splitlines()
                    if line.strip() and not line.startswith(("#", "set ", "cd "))]
        assert commands == ["make test"]
