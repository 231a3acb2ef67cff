"""pbem: a play-by-email adjudicator for World War II board games."""

__version__ = "0.1.0"
