"""A real, throw-away PostgreSQL server for the tests: initdb in a temporary folder, pg_ctl, a free port.

Debian's ``postgresql`` package puts the programs under /usr/lib/postgresql/<version>/bin. PostgreSQL
refuses to run as root, so when the tests run as root the server runs as the ``postgres`` user the
package creates (``runuser``). Password authentication over TCP, so a wrong password can be tested.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

from support.servers import free_port

USER, PASSWORD = "spots", "dice-and-dogs"


def binaries() -> Path | None:
    """The newest installed PostgreSQL's bin folder, or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    return Path(found[-1]).parent if found else None


# In memory where the machine has it: each test's database is a copy of a template (about 8 MB of files), and
# deleting a few dozen of them from a disk at the end of a loaded run took from 7 to 40 s.
MEMORY = "/dev/shm"


class Cluster:
    """One PostgreSQL server; ``database()`` makes a fresh empty database and returns its URL."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin = bin_dir
        self.dir = Path(tempfile.mkdtemp(prefix="spots-pg-", dir=MEMORY if os.access(MEMORY, os.W_OK) else None))
        self.port = free_port()
        self.count = 0
        self.as_user: list[str] = []
        if os.geteuid() == 0:  # initdb and postgres will not run as root
            account = pwd.getpwnam("postgres")
            os.chown(self.dir, account.pw_uid, account.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"]

    def _run(self, *args: str) -> None:
        done = subprocess.run([*self.as_user, *args], capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"{args[0]} failed: {done.stdout}{done.stderr}")

    def start(self) -> Cluster:
        data, pwfile = self.dir / "data", self.dir / "password"
        pwfile.write_text(PASSWORD + "\n")
        if self.as_user:
            shutil.chown(pwfile, "postgres", "postgres")
        self._run(str(self.bin / "initdb"), "-D", str(data), "-U", USER, f"--pwfile={pwfile}", "-A", "scram-sha-256",
                  "-E", "UTF8", "--locale=C", "--no-sync")
        options = (f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
                   " -c synchronous_commit=off -c full_page_writes=off -c max_connections=300")
        self._run(str(self.bin / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(self.dir / "log"), "-w", "start")
        return self

    def url(self, database: str = "postgres", password: str = PASSWORD) -> str:
        return f"postgresql://{USER}:{password}@127.0.0.1:{self.port}/{database}"

    def database(self) -> str:
        """A new empty database's URL."""
        import psycopg

        self.count += 1
        name = f"t{self.count}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        try:
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.dir / "data"), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)
