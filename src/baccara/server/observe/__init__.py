"""What the server tells its operators: the log (:mod:`.logs`) and the metrics (:mod:`.metrics`).

Every other part of the server may import it; it imports nothing of theirs but the
settings, so a database module and a route log the same way.
"""
