"""Fixtures any test file may use."""

# By the module's own name, not tests.real_mail: pytest puts this folder on sys.path to import this
# file, while the repository's root is there only under `python -m pytest` (a bare `pytest` would
# fail every test at this line).
from real_mail import real_mail  # noqa: F401  (a private Dovecot and Postfix for the session)
