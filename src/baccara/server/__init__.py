"""The casino: the one async layer, with a clock, a database and a network (``baccara serve``).

Its parts, each importing only those below it: ``app.py`` wires ``http/`` (the routes, the
guard, the bet lane) to ``domain/`` (the casino and its jobs), which uses ``cluster/`` (table
leases, membership, the hub) and ``db/`` (models, statements, the ledger, migrations);
``settings.py`` and ``errors.py`` are shared by all.
"""
