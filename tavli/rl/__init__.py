"""Interfaces for researchers: reinforcement-learning environments (filled below)."""
