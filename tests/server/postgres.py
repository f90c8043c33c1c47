"""A private PostgreSQL cluster for the tests, started from the machine's PostgreSQL.

``make test`` installs PostgreSQL where it is missing (scripts/system-deps); here the
tests start their own cluster in a temporary folder, on a free port, and give each
test a fresh database. PostgreSQL refuses to run as root, so as root the cluster runs
as the ``postgres`` user the package creates. Nothing is skipped: without PostgreSQL
the tests fail with one line saying what is missing.
"""

from __future__ import annotations

import glob
import os
import pathlib
import shutil
import subprocess
import tempfile
import uuid
from dataclasses import dataclass

import psycopg

from tests.server.harness import free_port

MISSING = (
    "PostgreSQL is missing (no initdb/pg_ctl under /usr/lib/postgresql): run `make test`,"
    " which installs it with apt-get, or `apt-get install postgresql`"
)


def binaries() -> pathlib.Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if not found:
        on_path = shutil.which("pg_ctl")
        if on_path is None:
            raise RuntimeError(MISSING)
        return pathlib.Path(os.path.realpath(on_path)).parent
    return pathlib.Path(found[-1]).parent


def _as_postgres(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", "postgres", "--", *command]


@dataclass
class Cluster:
    folder: pathlib.Path
    port: int
    bin: pathlib.Path

    @property
    def admin_url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def new_database(self) -> str:
        """A fresh, empty database; its SQLAlchemy URL."""
        name = f"t{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.admin_url, autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        subprocess.run(
            _as_postgres(
                [
                    str(self.bin / "pg_ctl"),
                    "-D",
                    str(self.folder / "data"),
                    "-m",
                    "immediate",
                    "stop",
                ]
            ),
            capture_output=True,
            timeout=60,
        )
        shutil.rmtree(self.folder, ignore_errors=True)


def start_cluster() -> Cluster:
    bin_dir = binaries()
    folder = pathlib.Path(tempfile.mkdtemp(prefix="baccara-pg-"))
    os.chmod(folder, 0o755)
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    data = folder / "data"
    port = free_port()
    subprocess.run(
        _as_postgres(
            [
                str(bin_dir / "initdb"),
                "-D",
                str(data),
                "-U",
                "postgres",
                "-A",
                "trust",
                "--no-sync",
                "-E",
                "UTF8",
            ]
        ),
        check=True,
        capture_output=True,
        timeout=120,
    )
    options = (
        f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
    )
    subprocess.run(
        _as_postgres(
            [
                str(bin_dir / "pg_ctl"),
                "-D",
                str(data),
                "-o",
                options,
                "-l",
                str(folder / "log"),
                "-w",
                "start",
            ]
        ),
        check=True,
        capture_output=True,
        timeout=120,
    )
    cluster = Cluster(folder, port, bin_dir)
    with psycopg.connect(cluster.admin_url, connect_timeout=10):  # pg_ctl -w waited for it
        return cluster
