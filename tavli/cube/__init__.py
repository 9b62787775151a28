"""The cube and match equity: pure Python, light to import (no NumPy)."""
