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
    """A systemd unit's command, with the kit's install folder replaced by this checkout. An instance of a
    template (``classplay-web@8001.service``) gets its name in place of ``%i``, as systemd does."""
    template, at, rest = unit.partition("@")
    instance = rest.removesuffix(".service")
    text = (KIT / "systemd" / (f"{template}@.service" if at else unit)).read_text()
    line = next(line for line in text.splitlines() if line.startswith(f"{key}="))
    command = line.split("=", 1)[1].replace("%i", instance)
    command = command.replace("/opt/classplay/.venv/bin/", f"{VENV_BIN}/")
    return shlex.split(command.replace("/opt/classplay/var/", f"{var_dir}/"))


def web_units() -> list[str]:
    """The web units classplay.target starts (``classplay-web@PORT.service``, one process each)."""
    target = (KIT / "systemd" / "classplay.target").read_text()
    return re.findall(r"classplay-web@\d+\.service", target)


def unit_port(unit: str) -> int:
    return int(unit.removeprefix("classplay-web@").removesuffix(".service"))


def make_certificate(folder: Path) -> None:
    """A self-signed certificate where the site file expects the school's (fullchain.pem, privkey.pem)."""
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
         "-keyout", f"{folder}/privkey.pem", "-out", f"{folder}/fullchain.pem"],
        check=True, capture_output=True,
    )  # fmt: skip


def nginx_site(
    tmp: Path, *, http_port: int, https_port: int, web_ports: dict[int, int], tls: bool = True
) -> str:
    """The kit's site file; ``web_ports`` maps each web unit's port in the kit to the one used here."""
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
    for kit_port, port in web_ports.items():
        site = site.replace(f"server 127.0.0.1:{kit_port} ", f"server 127.0.0.1:{port} ")
    site = site.replace("/etc/ssl/classplay/", f"{tmp}/")
    return site


class Kit:
    """nginx and the four units' processes, stopped together. ``configure`` first, then ``start``."""

    def __init__(self, tmp: Path, *, tls: bool = True, worker_connections: int = 512):
        self.tmp, self.tls, self.processes = tmp, tls, []
        self.worker_connections = worker_connections
        self.proxy_port = free_port()
        #: Each web unit of the target and the free port its process listens on here.
        self.web_ports = {unit: free_port() for unit in web_units()}
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
        check = subprocess.run(unit_command(web_units()[0], "ExecStartPre"), cwd=ROOT, env=self.env,
                               capture_output=True, text=True)  # fmt: skip
        assert check.returncode == 0, check.stdout + check.stderr
        for unit in self.web_ports:
            self.start_web(unit)
        for unit in UNITS:
            self.start_unit(unit)
        self.start_proxy()
        return self

    def start_web(self, unit: str) -> subprocess.Popen:
        """One web unit's process (again, after a crash), on this kit's port for it."""
        command = unit_command(unit, var_dir=self.var_dir)
        command[command.index("--port") + 1] = str(self.web_ports[unit])
        process = self.units[unit] = self.run(command, unit.removesuffix(".service"))
        until_listening(self.web_ports[unit], process, unit, seconds=60)
        return process

    @property
    def webs(self) -> dict[str, subprocess.Popen]:
        return {unit: self.units[unit] for unit in self.web_ports}

    def start_unit(self, unit: str) -> subprocess.Popen:
        """One unit's process (again, after a crash: systemd's Restart=always)."""
        self.units[unit] = self.run(unit_command(unit, var_dir=self.var_dir), unit)
        return self.units[unit]

    def start_proxy(self) -> subprocess.Popen:
        site = nginx_site(
            self.tmp,
            http_port=free_port(),
            https_port=self.proxy_port,
            web_ports={unit_port(unit): port for unit, port in self.web_ports.items()},
            tls=self.tls,
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
