"""The storage layer of the browser app (``tavli play``) and the online server (``tavli
serve``): one package, SQLite and PostgreSQL (docs/design.md, Layout; docs/server.md).

It imports nothing of tavli but :mod:`tavli.errors`; the web and online interfaces import
it. Its modules, each importing only those above it:

* :mod:`~tavli.store.sql`: every statement, written once, and the two dialects;
* :mod:`~tavli.store.dburl`: reading a ``--db`` value;
* :mod:`~tavli.store.migrations`: the versioned schemas (online, local) and how a
  database is brought up to date;
* :mod:`~tavli.store.base`: the rows, the seat tokens, the interfaces
  :class:`~tavli.store.base.Backend` and :class:`~tavli.store.base.Store`;
* :mod:`~tavli.store.online`, :mod:`~tavli.store.local`: the two stores;
* :mod:`~tavli.store.sqlite`, :mod:`~tavli.store.postgresql`: the two backends;
* :mod:`~tavli.store.factory`: ``open_store`` and ``open_local`` from a ``--db`` value;
* :mod:`~tavli.store.pgcluster`: a throw-away PostgreSQL cluster (tests, benchmarks).

Nothing here imports a database driver until it is used.
"""
