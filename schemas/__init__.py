"""The JSON Schemas, installed as package data so an installed pbem finds them: the core's turn
file, the Axis & Allies family's orders, standing orders and state (also the default of a ruleset
without schemas of its own), and each other game's in its own folder (`qmg/`)."""
