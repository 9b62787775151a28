"""The cube and match equity, pure Python (no NumPy, no networks)."""
