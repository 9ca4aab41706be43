"""The package's version and metadata."""

import importlib.metadata
import pathlib

import osolve
from conftest import run_cli


def test_version_equals_the_cli():
    cli = run_cli("--version").split()
    assert cli[0] == "osolve" and cli[1] == osolve.__version__
    assert importlib.metadata.version("osolve") == osolve.__version__


def test_typed_package():
    package = pathlib.Path(osolve.__file__).parent
    assert (package / "py.typed").is_file()
    stub = (package / "__init__.pyi").read_text()
    for name in osolve.__all__:
        assert name in stub, name
