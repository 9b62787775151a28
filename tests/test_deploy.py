"""The deployment example (deploy/): the files agree with each other and with `tavli
serve`'s options (nothing here runs nginx, systemd or docker)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from tavli.cli import build_parser

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"


def _serve_args(command: str) -> list[str]:
    words = shlex.split(command)
    return words[words.index("serve"):]


def test_nginx_upstream_is_the_serve_processes_of_compose():
    nginx = (DEPLOY / "nginx.conf").read_text()
    compose = (DEPLOY / "compose.yaml").read_text()
    upstream = re.search(r"upstream tavli \{(.*?)\}", nginx, re.S).group(1)
    ports = {int(p) for p in re.findall(r"server 127\.0\.0\.1:(\d+)", upstream)}
    commands = re.findall(r"^\s+command: (tavli serve .*)$", compose, re.M)
    assert len(commands) == 2 and len(ports) == 2
    parser = build_parser()
    served = set()
    for c in commands:
        args = parser.parse_args(_serve_args(c))
        assert args.db.startswith("postgresql://") and "@127.0.0.1:5432/" in args.db
        assert args.host == "127.0.0.1"
        assert "tavli.example.org" in args.name
        served.add(args.port)
    assert served == ports
    assert "proxy_set_header Upgrade $http_upgrade" in nginx
    assert nginx.count("proxy_set_header Host $host") == 3
    assert "tavli.example.org" in nginx
    assert compose.count("    network_mode: host") == 4  # 127.0.0.1 in nginx.conf holds


def test_systemd_unit_runs_tavli_serve_with_the_instance_port():
    unit = (DEPLOY / "tavli-serve@.service").read_text()
    start = re.search(r"^ExecStart=(.*)$", unit, re.M).group(1)
    words = _serve_args(start.replace("%i", "8801").replace("${TAVLI_ONLINE_DB}",
                                                               "postgresql://x@h/d")
                        .replace("${TAVLI_PUBLIC_NAME}", "tavli.example.org"))
    args = build_parser().parse_args(words)
    assert args.port == 8801 and args.host == "127.0.0.1"
    assert "KillSignal=SIGINT" in unit  # uvicorn's graceful stop
    env = (DEPLOY / "serve.env").read_text()
    assert re.search(r"^TAVLI_ONLINE_DB=postgresql://", env, re.M)
    assert re.search(r"^TAVLI_PUBLIC_NAME=", env, re.M)
