"""The casino: the one async layer, with a clock, a database and a network (``baccara serve``).

Its parts, each importing only those below it: ``app.py`` wires ``http/`` (the routes, the
guard, the bet lane) to ``domain/`` (the casino façade, the runner of the tables dealt here,
the views and the casino's other jobs), which uses ``cluster/`` (membership and leases, the
notification bus, the mirrors of tables dealt elsewhere, the hub) and ``db/`` (models,
statements, the ledger, the group commit, migrations); ``observe/`` (the log and the
metrics), ``settings.py``, ``errors.py`` and ``clock.py`` are shared by all.
"""
