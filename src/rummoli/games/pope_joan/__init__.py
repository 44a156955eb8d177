"""Pope Joan, a game of the Stops family: its declaration is :mod:`.description`."""
