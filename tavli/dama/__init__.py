"""Dama (draughts): the game box's rules, Russian and Italian draughts, with an AI."""
