"""Input and output: reading files, rendering results.

Readers of CSV, JSON Lines and Parquet (``readers``), reports in text, Markdown, CSV, JSON and
HTML (``report``, ``html``), plots and scikit-learn-style displays (``plots``, ``displays``)
and the bundled example data (``datasets``, the files in ``data/``). Importing ``report`` registers the renderings
that results delegate ``str()``, ``_repr_html_`` and ``report()`` to.

May import: every layer below the faces' users: engine, measures, results, scores, groups and
the two faces.
"""
