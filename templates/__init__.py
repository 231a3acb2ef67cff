"""The report templates, installed as package data so an installed pbem finds them."""
