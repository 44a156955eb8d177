"""Newmarket (Horses, Boodle), a game of the Stops family: its declaration is
:mod:`.description`."""
