"""The JSON Schemas, installed as package data so an installed pbem finds them."""
