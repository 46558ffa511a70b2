"""The deployment kit (deploy/) started from its own files, as tests/deploy/test_kit.py and
bench/school_load.py run it: nginx from the kit's site file in front of the web unit's uvicorn command,
and the clock, Celery worker and beat units, all configured from the example environment file.

The kit's files are used as they are, but for what a test machine must change: paths (/opt/classplay, the
certificate), ports (free ones on loopback), and the example's placeholders (database, secret, host). With
``tls=False`` the site's TLS server listens on plain HTTP (a benchmark's clients need no TLS cost).

No Django import here: the benchmark uses this module before it configures Django."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from tests.live import free_port, kill, until_listening

ROOT = Path(__file__).resolve().parents[1]
KIT = ROOT / "deploy"
VENV_BIN = Path(sys.executable).parent
TEMP_PATHS = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
UNITS = ("classplay-clock.service", "classplay-worker.service", "classplay-beat.service")


def nginx_binary() -> str:
    return shutil.which("nginx") or "/usr/sbin/nginx"


def example_environment(**overrides) -> dict[str, str]:
    """deploy/classplay.env.example as systemd's EnvironmentFile reads it, with this machine's values."""
    env = {}
    for line in (KIT / "classplay.env.example").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            key, _sep, value = line.partition("=")
            env[key.strip()] = value.strip()
    return env | overrides


def unit_command(unit: str, key: str = "ExecStart", var_dir: Path = ROOT / "var") -> list[str]:
    """A systemd unit's command, with the kit's install folder replaced by this checkout."""
    text = (KIT / "systemd" / unit).read_text()
    line = next(line for line in text.splitlines() if line.startswith(f"{key}="))
    command = line.split("=", 1)[1].replace("/opt/classplay/.venv/bin/", f"{VENV_BIN}/")
    return shlex.split(command.replace("/opt/classplay/var/", f"{var_dir}/"))


def make_certificate(folder: Path) -> None:
    """A self-signed certificate where the site file expects the school's (fullchain.pem, privkey.pem)."""
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
         "-keyout", f"{folder}/privkey.pem", "-out", f"{folder}/fullchain.pem"],
        check=True, capture_output=True,
    )  # fmt: skip


def nginx_site(tmp: Path, *, http_port: int, https_port: int, web_port: int, tls: bool = True) -> str:
    site = (KIT / "nginx" / "classplay.conf").read_text()
    site = re.sub(r"\n\s*listen \[::\][^;]*;", "", site)  # a test machine may have no IPv6
    site = site.replace("listen 80;", f"listen 127.0.0.1:{http_port};")
    if tls:
        site = re.sub(
            r"listen 443 ssl( http2)?;",
            lambda m: f"listen 127.0.0.1:{https_port} ssl{m.group(1) or ''};",
            site,
        )
    else:  # the lesson's server block on plain HTTP: its TLS lines go
        site = re.sub(r"listen 443 ssl( http2)?;", f"listen 127.0.0.1:{https_port};", site)
        site = re.sub(r"\n\s*ssl_[a-z_]+ [^;]*;", "", site)
    site = site.replace("server 127.0.0.1:8000;", f"server 127.0.0.1:{web_port};")
    site = site.replace("/etc/ssl/classplay/", f"{tmp}/")
    return site


class Kit:
    """nginx and the four units' processes, stopped together. ``configure`` first, then ``start``."""

    def __init__(self, tmp: Path, *, tls: bool = True, worker_connections: int = 512):
        self.tmp, self.tls, self.processes = tmp, tls, []
        self.worker_connections = worker_connections
        self.proxy_port, self.web_port = free_port(), free_port()
        self.var_dir = tmp / "var"
        self.var_dir.mkdir(exist_ok=True)
        self.units: dict[str, subprocess.Popen] = {}
        self.env: dict[str, str] = dict(os.environ)

    @property
    def base(self) -> str:
        return f"{'https' if self.tls else 'http'}://127.0.0.1:{self.proxy_port}"

    @property
    def https_port(self) -> int:
        return self.proxy_port

    def configure(self, **overrides: str) -> Kit:
        """The example environment file with this machine's values, as every unit reads it."""
        self.env = {**os.environ, **example_environment(**overrides)}
        return self

    def manage(self, *args: str) -> None:
        done = subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stdout + done.stderr

    def run(self, command: list[str], name: str) -> subprocess.Popen:
        log = open(self.tmp / f"{name}.log", "ab")  # noqa: SIM115 (closed with the process)
        process = subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        self.processes.append(process)
        return process

    def start(self, *, collectstatic: bool = True) -> Kit:
        make_certificate(self.tmp)
        # docs/deploy.md's set-up steps that a running site needs, then the web unit's own check.
        if collectstatic:
            self.manage("collectstatic", "--noinput", "--verbosity", "0")
        check = subprocess.run(unit_command("classplay-web.service", "ExecStartPre"), cwd=ROOT, env=self.env,
                               capture_output=True, text=True)  # fmt: skip
        assert check.returncode == 0, check.stdout + check.stderr
        self.start_web()
        for unit in UNITS:
            self.start_unit(unit)
        self.start_proxy()
        return self

    def start_web(self) -> subprocess.Popen:
        web = unit_command("classplay-web.service", var_dir=self.var_dir)
        web[-1] = web[-1].replace("--port 8000", f"--port {self.web_port}")
        self.web = self.units["classplay-web.service"] = self.run(web, "web")
        until_listening(self.web_port, self.web, "the web unit", seconds=60)
        return self.web

    def start_unit(self, unit: str) -> subprocess.Popen:
        """One unit's process (again, after a crash: systemd's Restart=always)."""
        self.units[unit] = self.run(unit_command(unit, var_dir=self.var_dir), unit)
        return self.units[unit]

    def start_proxy(self) -> subprocess.Popen:
        site = nginx_site(
            self.tmp, http_port=free_port(), https_port=self.proxy_port, web_port=self.web_port, tls=self.tls
        )
        (self.tmp / "site.conf").write_text(site)
        (self.tmp / "nginx.conf").write_text(
            f"daemon off; pid {self.tmp}/nginx.pid; error_log {self.tmp}/nginx-error.log;\n"
            f"worker_rlimit_nofile {4 * self.worker_connections};\n"
            f"events {{ worker_connections {self.worker_connections}; }}\n"
            "http { access_log off;\n"
            + "".join(f"  {kind}_temp_path {self.tmp}/{kind};\n" for kind in TEMP_PATHS)
            + f"  include {self.tmp}/site.conf; }}\n"
        )
        self.proxy = self.run([nginx_binary(), "-p", str(self.tmp), "-c", f"{self.tmp}/nginx.conf"], "nginx")
        until_listening(self.proxy_port, self.proxy, "nginx", seconds=20)
        return self.proxy

    def log_tails(self) -> dict[str, str]:
        return {log.name: log.read_text(errors="replace")[-1500:] for log in self.tmp.glob("*.log")}

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                kill(process)
