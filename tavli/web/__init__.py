"""The browser app (``tavli play``): a FastAPI server, a SQLite store of games and a page
that draws the board as SVG. See docs/web.md."""
