"""Fixtures any test file may use."""

from tests.real_mail import real_mail  # noqa: F401  (a private Dovecot and Postfix for the session)
