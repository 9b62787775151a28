"""Dama's games and its PDN records."""
