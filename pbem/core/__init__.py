"""The ruleset-independent core: errors, YAML I/O, dice, the event log and the turn runner."""
