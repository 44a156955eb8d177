"""Rummoli: the Canadian family card game, and Basic Rummy, as a rules engine with ways to play."""

__version__ = "0.1.0"
