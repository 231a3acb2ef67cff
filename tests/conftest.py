"""Fixtures any test file may use."""

import os

import pytest

# By the module's own name, not tests.real_mail: pytest puts this folder on sys.path to import this
# file, while the repository's root is there only under `python -m pytest` (a bare `pytest` would
# fail every test at this line).
from real_mail import real_mail  # noqa: F401  (a private Dovecot and Postfix for the session)


@pytest.fixture(autouse=True, scope="session")
def own_cache(tmp_path_factory):
    """Every test, and every process a test starts, caches in a folder of this session's own
    (pbem.core.cache): no test depends on what an earlier run or the user left in theirs."""
    os.environ["PBEM_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
