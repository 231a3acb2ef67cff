"""The JSON Schemas, installed as package data so an installed pbem finds them: the core's turn file
and state envelope here, and each game family's orders, standing orders and state in its own folder
(`axis_allies/`, `qmg/`), the package its ruleset names as `Ruleset.schema_package`."""
