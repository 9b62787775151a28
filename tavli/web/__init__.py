"""The browser app (``tavli play``): a FastAPI server over a SQLite store of games
(:mod:`tavli.store.local`) and a page that draws the board as SVG. See docs/web.md."""
