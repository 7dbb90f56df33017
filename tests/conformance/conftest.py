"""``pytest tests`` runs the conformance kit, which ships in the package
(:mod:`chainer_core.testing.conformance`): collecting this directory
collects the kit where it is installed, so CI covers it without a copy of
it here. ``pytest --pyargs chainer_core.testing.conformance`` runs the kit
alone."""
import pathlib

import pytest

import chainer_core.testing.conformance as kit

KIT = pathlib.Path(kit.__file__).parent


def pytest_collect_file(file_path, parent):
    # This file is the anchor: the kit is collected once, in its place.
    if file_path == pathlib.Path(__file__):
        return pytest.Package.from_parent(parent, path=KIT)
    return None
