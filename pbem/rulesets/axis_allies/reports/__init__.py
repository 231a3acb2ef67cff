"""The Axis & Allies reports: the turn report (`report.py`), the board (`map_image.py`, drawn from the
layers and style of the other `map_*.py`), where the war stands (`standing.py`), the game's charts
(`charts.py`) and the odds in words (`odds_text.py`)."""
