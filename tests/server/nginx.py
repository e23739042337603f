"""Debian's nginx in front of meeple, as docs/deploy.md sets it up, for the tests: TLS with a
self-signed certificate made for the test, WebSockets passed through, the client's address
in X-Forwarded-For, listening on 127.0.0.1 only, in a folder of the test's own (its own
configuration, pid file, logs and temporary files: nothing of the machine's nginx is used).

The configuration is :func:`site_config` (the ``server`` block docs/deploy.md shows) inside
:func:`whole_config` (what a test needs around it: no daemon, paths in its folder)."""

from __future__ import annotations

import shutil
import signal
import socket
import ssl
import subprocess
import time
from pathlib import Path

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def make_certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 (and localhost), valid for a day: its files
    (certificate, key)."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-keyout", str(key), "-out", str(cert), "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
                   check=True, capture_output=True, timeout=60)
    return cert, key


def site_config(port: int, upstreams: list[int], cert: Path, key: Path) -> str:
    """The ``http`` part of docs/deploy.md's configuration: TLS on ``port``, every request
    (and WebSocket) passed to the meeple processes on ``upstreams``."""
    servers = "\n".join(f"        server 127.0.0.1:{p};" for p in upstreams)
    return f"""
    map $http_upgrade $connection_upgrade {{
        default upgrade;
        ''      close;
    }}
    upstream meeple {{
{servers}
    }}
    server {{
        listen 127.0.0.1:{port} ssl;
        server_name 127.0.0.1;
        ssl_certificate     {cert};
        ssl_certificate_key {key};
        client_max_body_size 1m;
        location / {{
            proxy_pass http://meeple;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $host:$server_port;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_read_timeout 1h;
        }}
    }}
"""


def whole_config(folder: Path, site: str) -> str:
    """A whole nginx configuration around ``site`` that keeps everything in ``folder``."""
    return f"""
daemon off;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log {folder}/access.log;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
{site}
}}
"""


class Nginx:
    """One nginx process in ``folder`` in front of the meeple processes on ``upstreams``."""

    def __init__(self, folder: Path, port: int, upstreams: list[int]) -> None:
        self.folder, self.port = folder, port
        self.cert, key = make_certificate(folder)
        self.conf = folder / "nginx.conf"
        self.conf.write_text(whole_config(folder, site_config(port, upstreams, self.cert, key)))
        self.proc: subprocess.Popen[bytes] | None = None
        self.tls = ssl.create_default_context(cafile=str(self.cert))

    @property
    def base(self) -> str:
        return f"https://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"wss://127.0.0.1:{self.port}"

    def start(self) -> None:
        subprocess.run([NGINX, "-t", "-c", str(self.conf), "-p", str(self.folder)],
                       check=True, capture_output=True, timeout=60)
        self.proc = subprocess.Popen([NGINX, "-c", str(self.conf), "-p", str(self.folder)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("nginx exited: " + (self.folder / "error.log").read_text())
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        raise RuntimeError("nginx did not start in 30 s")

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.send_signal(signal.SIGQUIT)  # graceful: its workers end with it
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc = None


def available() -> bool:
    """Whether nginx and openssl are installed (scripts/test installs them with apt-get)."""
    return Path(NGINX).exists() and shutil.which("openssl") is not None
