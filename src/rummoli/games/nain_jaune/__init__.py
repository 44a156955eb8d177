"""Nain Jaune, a game of the Stops family: its declaration is :mod:`.description`."""
