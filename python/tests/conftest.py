"""Shared fixtures: the repository's files and the osolve binary the answers are compared with.

The binary is $OSOLVE_BIN, else target/release/osolve of the repository (`cargo build
--release` makes it; .ci/run builds it before the Python tests)."""

import json
import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


def cli_path():
    path = pathlib.Path(os.environ.get("OSOLVE_BIN", REPO / "target" / "release" / "osolve"))
    if not path.is_file():
        pytest.fail(f"the osolve binary {path} is missing: run `cargo build --release` or set OSOLVE_BIN")
    return path


def run_cli(*args, input=None):
    """Runs the osolve binary; returns its standard output (fails the test on a bad exit)."""
    result = subprocess.run(
        [str(cli_path()), *map(str, args)],
        input=input,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, f"osolve {' '.join(map(str, args))}: exit {result.returncode}: {result.stderr}"
    return result.stdout


def cli_json_lines(*args, input=None):
    return [json.loads(line) for line in run_cli(*args, input=input).splitlines() if line.strip()]


@pytest.fixture(scope="session")
def repo():
    return REPO


@pytest.fixture(scope="session")
def solver():
    import osolve

    return osolve.Solver(threads=2, hash_mb=64)
