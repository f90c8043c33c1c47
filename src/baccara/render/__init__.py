"""What people see: rich tables, plots, a round as text, the house-way sheet.

Renderers take results (an analysis, a simulation report, a dealt round) and lay
them out; they compute nothing a library caller could not get without them.
"""
